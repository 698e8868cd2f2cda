// The admin module's door: the permissions of the admin area, who may act (operators), the audit
// log every admin action writes in its own transaction, staff management, and the operators' actions
// on the shop's data (the command line and the admin pages call the same ones).
export {
  ADMIN_PERMISSIONS,
  PERMISSION_LABELS,
  adminPermissionSchema,
  isAdminPermission,
  permissionsOfRole,
  type AdminPermission,
} from './permissions';
export {
  ADMIN_REFUSAL_CODES,
  auditFilterSchema,
  commandLineOperator,
  listAuditEntries,
  recordAudit,
  runAdminAction,
  type AdminActionResult,
  type AdminRefusalCode,
  type AuditEntry,
  type AuditFilter,
  type AuditRecord,
  type Operator,
} from './audit';
export {
  STAFF_INVITATION_DAYS,
  STAFF_ROLE_LABELS,
  acceptInvitation,
  adminAccessOf,
  grantStaffDirectly,
  invitationForToken,
  inviteStaff,
  listPendingInvitations,
  listStaff,
  revokeInvitation,
  revokeStaff,
  setStaffAccess,
  staffInvitationSchema,
  staffPermissionsSchema,
  type AdminAccess,
  type PendingInvitation,
  type StaffInvitationInput,
  type StaffMember,
  type StaffRole,
} from './staff';
export {
  clearPurchaseHoldAsOperator,
  createMembersAsOperator,
  createPackAsOperator,
  declareAgeAsOperator,
  endPackAsOperator,
  grantCoinsAsOperator,
  publishPackAsOperator,
  refundOrderAsOperator,
  saveCoinPackAsOperator,
  type OperatorGrantInput,
  type OperatorOutcome,
} from './operations';

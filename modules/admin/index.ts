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
  auditTextDigest,
  auditValueForDisplay,
  commandLineOperator,
  isAuditTextDigest,
  listAuditEntries,
  recordAudit,
  recordRefusal,
  runAdminAction,
  type AdminActionResult,
  type AdminRefusalCode,
  type AuditEntry,
  type RefusalAudit,
  type AuditFilter,
  type AuditRecord,
  type AuditTextDigest,
  type Operator,
} from './audit';
export {
  STAFF_INVITATION_DAYS,
  STAFF_ROLE_LABELS,
  adminAccessOf,
  grantStaffDirectly,
  listStaff,
  revokeStaff,
  setStaffAccess,
  staffPermissionsSchema,
  type AdminAccess,
  type StaffChangeOutcome,
  type StaffMember,
  type StaffRole,
} from './staff';
export {
  acceptInvitation,
  invitationForToken,
  inviteStaff,
  listPendingInvitations,
  revokeInvitation,
  staffInvitationSchema,
  type PendingInvitation,
  type StaffInvitationInput,
} from './staff-invitations';
export {
  STAFF_REQUEST_NOTE_MAX,
  approveStaffRoleRequest,
  listPendingStaffRoleRequests,
  rejectStaffRoleRequest,
  type StaffRoleRequestView,
} from './staff-requests';
export { changesAnAdmin, grantablePermissions, mayAskForAdminChanges, mayGive, mayTouch } from './authority';
export {
  clearPurchaseHoldAsOperator,
  createMembersAsOperator,
  declareAgeAsOperator,
  grantCoinsAsOperator,
  type OperatorGrantInput,
} from './member-operations';
export {
  createPackAsOperator,
  endPackAsOperator,
  publishPackAsOperator,
  receiveStockAsOperator,
  adjustStockAsOperator,
  saveCoinPackAsOperator,
  saveGenreAsOperator,
  setMaintenanceAsOperator,
  type OperatorOutcome,
  type PublishReview,
} from './operations';
export { refundOrderAsOperator, decideReviewedOrderAsOperator } from './order-operations';
export { moveBannerAsOperator, saveBannerAsOperator, setBannerActiveAsOperator } from './banners';
export {
  createDraftAsOperator,
  updateDraftAsOperator,
  setDraftTiersAsOperator,
  setDraftTierImageAsOperator,
  copyPackAsOperator,
} from './pack-editor';
export {
  ADJUSTMENT_REASON_MAX,
  BAN_REASON_MAX,
  MAX_ADJUSTMENT_COINS,
  MEMBER_CONSOLE_REFUSAL_CODES,
  MEMBER_NOTE_MAX,
  addMemberNoteAsOperator,
  banMemberAsOperator,
  coinAdjustmentSchema,
  HOLD_NOTE_PREFIX,
  holdMemberAsOperator,
  holdReasonOf,
  listMemberNotes,
  memberBanSchema,
  memberHoldSchema,
  memberNoteSchema,
  revokeMemberSessionsAsOperator,
  unbanMemberAsOperator,
  type CoinAdjustmentInput,
  type MemberConsoleRefusalCode,
  type MemberNote,
} from './members';
export { endSponsorshipAsOperator, startSponsorshipAsOperator } from './sponsorships';
export { resendStatementLinkAsOperator, type RestrictionNotice } from './restrictions';
export {
  announceClosureAsOperator,
  cancelClosureAsOperator,
  recordClosureRefundPaidAsOperator,
  recordRefundAccountsViewed,
} from './closure';
export {
  adjustCoinsAsOperator,
  approveCoinAdjustment,
  countPendingCoinAdjustments,
  listCoinAdjustmentsOf,
  listPendingCoinAdjustments,
  rejectCoinAdjustment,
  type CoinAdjustmentRules,
  type CoinAdjustmentView,
} from './coin-adjustments';
export {
  CONTENT_SCHEDULER_OPERATOR,
  cancelContentScheduleAsOperator,
  createContentAsOperator,
  publishContentAsOperator,
  publishScheduledContent,
  recordContentImageAsOperator,
  rollbackContentAsOperator,
  saveContentDraftAsOperator,
  scheduleContentAsOperator,
  unpublishContentAsOperator,
} from './content';
export { redactMemberNotesOf } from './erasure';
export {
  MAIL_SEND_REFUSAL_CODES,
  approveMailRequest,
  countPendingMailRequests,
  listPendingMailRequests,
  mailCostOf,
  rejectMailRequest,
  sendMailAsOperator,
  sendTestMailAsOperator,
  type MailConfirmation,
  type MailCost,
  type MailPresentRules,
  type MailRecipientCounter,
  type MailSendRefusalCode,
  type MailSendRequestView,
} from './mail-sends';
export { adminSettings } from './settings';
export { ADMIN_REFUSAL_WORDS, MEMBER_CONSOLE_REFUSAL_WORDS, MAIL_SEND_REFUSAL_WORDS } from './refusal-words';

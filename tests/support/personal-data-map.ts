// The data map as a test fixture: every table and every text, JSON or network-address column of the
// shop's database, what personal data it can hold and what 退会 does to it. docs/personal-data.md is the
// same map in words; the catalog test (server/personal-data-map.db.test.ts) fails on a table or column
// missing here, and the deletion scan allows a member's identifiers only where a column says `keep`.

/** What a column can hold of a member (or of staff, said in `why`). */
export type PersonalDatum =
  | 'email'
  | 'phone'
  | 'name'
  | 'address'
  | 'birthday'
  | 'ip'
  | 'user-agent'
  | 'free-text'
  | 'image'
  | 'social-id'
  | 'secret'
  | 'member-id'
  | 'fingerprint'
  | 'pseudonym'
  | 'transaction';

/**
 * What 退会 does: erase (the value or the row goes), pseudonymise (a value that names nobody takes its
 * place), redact (the text stays with the member's identifiers replaced), keep (with the reason or the
 * law in `why`).
 */
export type OnDeletion = 'erase' | 'pseudonymise' | 'redact' | 'keep';

export interface PersonalColumn {
  holds: readonly PersonalDatum[];
  onDeletion: OnDeletion;
  why: string;
}

/** A column that holds nothing about a person (codes, statuses, catalogue text, hashes of rules…). */
export const NOT_PERSONAL = 'not personal' as const;

export interface MappedTable {
  /** The module that owns the table (its door does the deletion), or the library. */
  owner: string;
  /** Every text, JSON and network-address column. */
  columns: Record<string, PersonalColumn | typeof NOT_PERSONAL>;
}

/** Every table, by `schema.table` (`public` is left out of the name). */
export const PERSONAL_DATA_MAP: Record<string, MappedTable> = {
  'drizzle.__drizzle_migrations': {
    owner: 'drizzle-kit',
    columns: {
      hash: NOT_PERSONAL,
    },
  },
  accounts: {
    owner: 'identity',
    columns: {
      id: NOT_PERSONAL,
      account_id: {
        holds: ['social-id'],
        onDeletion: 'erase',
        why: 'the LINE / social provider’s user id: the row is deleted',
      },
      provider_id: NOT_PERSONAL,
      user_id: {
        holds: ['member-id'],
        onDeletion: 'erase',
        why: 'the member’s id: the whole row is deleted',
      },
      access_token: {
        holds: ['secret'],
        onDeletion: 'erase',
        why: 'the provider’s tokens (the id token carries the name and address the provider knows): the row is deleted',
      },
      refresh_token: {
        holds: ['secret'],
        onDeletion: 'erase',
        why: 'the provider’s tokens (the id token carries the name and address the provider knows): the row is deleted',
      },
      id_token: {
        holds: ['secret'],
        onDeletion: 'erase',
        why: 'the provider’s tokens (the id token carries the name and address the provider knows): the row is deleted',
      },
      scope: NOT_PERSONAL,
      password: { holds: ['secret'], onDeletion: 'erase', why: 'the password hash: the row is deleted' },
    },
  },
  admin_audit_log: {
    owner: 'admin',
    columns: {
      actor_id: NOT_PERSONAL,
      actor_label: { holds: ['name'], onDeletion: 'keep', why: 'the staff member’s own name, not the member’s' },
      permission: NOT_PERSONAL,
      action: NOT_PERSONAL,
      target_type: NOT_PERSONAL,
      target_id: {
        holds: ['member-id'],
        onDeletion: 'keep',
        why: 'the member’s id: after 退会 it names the tombstone, which identifies nobody',
      },
      before: {
        holds: ['free-text'],
        onDeletion: 'keep',
        why: 'append-only audit record (decision 021; a trigger refuses UPDATE and DELETE even to the owner), never rewritten: the record of what staff did to whom, kept for accountability (個人情報保護法 23条 安全管理措置) and disputes. It names members by id only and holds no free text written to or about a member: answers, notes, reasons and personal mail subjects are kept as a digest { textSha256, textLength } (decision 053), the text only in its own row (redacted by 退会, or kept there for that row’s own reason, such as the ledger memo). Readable only with audit:read',
      },
      after: {
        holds: ['free-text'],
        onDeletion: 'keep',
        why: 'append-only audit record (decision 021; a trigger refuses UPDATE and DELETE even to the owner), never rewritten: the record of what staff did to whom, kept for accountability (個人情報保護法 23条 安全管理措置) and disputes. It names members by id only and holds no free text written to or about a member: answers, notes, reasons and personal mail subjects are kept as a digest { textSha256, textLength } (decision 053), the text only in its own row (redacted by 退会, or kept there for that row’s own reason, such as the ledger memo). Readable only with audit:read',
      },
      request_id: NOT_PERSONAL,
      address: { holds: ['ip'], onDeletion: 'keep', why: 'the staff member’s IP address, not the member’s' },
    },
  },
  app_meta: {
    owner: 'db',
    columns: {
      key: NOT_PERSONAL,
      value: NOT_PERSONAL,
    },
  },
  coin_adjustments: {
    owner: 'admin',
    columns: {
      request_key: NOT_PERSONAL,
      member_id: {
        holds: ['member-id'],
        onDeletion: 'keep',
        why: 'the member’s id: after 退会 it names the tombstone, which identifies nobody',
      },
      kind: NOT_PERSONAL,
      reason: {
        holds: ['free-text'],
        onDeletion: 'keep',
        why: 'staff’s words on a coin adjustment: a money record kept with the ledger (資金決済法 / 法人税法 7 years)',
      },
      status: NOT_PERSONAL,
      requested_by: NOT_PERSONAL,
      requested_label: { holds: ['name'], onDeletion: 'keep', why: 'staff names, not the member’s' },
      decided_by: NOT_PERSONAL,
      decided_label: { holds: ['name'], onDeletion: 'keep', why: 'staff names, not the member’s' },
      decision_note: {
        holds: ['free-text'],
        onDeletion: 'keep',
        why: 'staff’s words on a coin adjustment: a money record kept with the ledger (資金決済法 / 法人税法 7 years)',
      },
    },
  },
  coin_grants: {
    owner: 'wallet',
    columns: {
      member_id: {
        holds: ['member-id'],
        onDeletion: 'keep',
        why: 'the member’s id: after 退会 it names the tombstone, which identifies nobody',
      },
      kind: NOT_PERSONAL,
      reason: NOT_PERSONAL,
    },
  },
  coin_ledger: {
    owner: 'wallet',
    columns: {
      member_id: {
        holds: ['member-id'],
        onDeletion: 'keep',
        why: 'the member’s id: after 退会 it names the tombstone, which identifies nobody',
      },
      kind: NOT_PERSONAL,
      counter_account: NOT_PERSONAL,
      reason: NOT_PERSONAL,
      idem_key: NOT_PERSONAL,
      ref: NOT_PERSONAL,
      memo: {
        holds: ['free-text'],
        onDeletion: 'keep',
        why: 'append-only ledger (decision 007), never rewritten: 資金決済法 (前払式支払手段) and 法人税法 126条 / 施行規則 59条 (7 years), 会社法 432条 (10 years). Memos are the system’s and staff’s, never the member’s words',
      },
    },
  },
  coin_packs: {
    owner: 'payments',
    columns: {
      id: NOT_PERSONAL,
      name: NOT_PERSONAL,
      badge: NOT_PERSONAL,
    },
  },
  content_documents: {
    owner: 'content',
    columns: {
      id: NOT_PERSONAL,
      type: NOT_PERSONAL,
      uid: NOT_PERSONAL,
      lang: NOT_PERSONAL,
      tags: NOT_PERSONAL,
      data: NOT_PERSONAL,
    },
  },
  content_versions: {
    owner: 'content',
    columns: {
      document_id: NOT_PERSONAL,
      type: NOT_PERSONAL,
      uid: NOT_PERSONAL,
      lang: NOT_PERSONAL,
      tags: NOT_PERSONAL,
      data: NOT_PERSONAL,
      created_by: NOT_PERSONAL,
      note: NOT_PERSONAL,
    },
  },
  draw_daily_members: {
    owner: 'draw',
    columns: {},
  },
  draw_daily_rollups: {
    owner: 'draw',
    columns: {
      gacha_id: NOT_PERSONAL,
    },
  },
  draw_member_days: {
    owner: 'draw',
    columns: {
      member_id: {
        holds: ['member-id'],
        onDeletion: 'keep',
        why: 'the member’s id: after 退会 it names the tombstone, which identifies nobody',
      },
    },
  },
  draw_rollup_marks: {
    owner: 'draw',
    columns: {
      name: NOT_PERSONAL,
    },
  },
  draw_beacon_heads: {
    owner: 'draw',
    columns: {
      gacha_id: NOT_PERSONAL,
      head: NOT_PERSONAL,
      prev_head: NOT_PERSONAL,
      beacon_signature: NOT_PERSONAL,
      beacon_randomness: NOT_PERSONAL,
    },
  },
  draw_receipts: {
    owner: 'draw',
    columns: {
      member_id: {
        holds: ['member-id'],
        onDeletion: 'keep',
        why: 'the member’s id in a signed receipt’s record (decision 081): after 退会 it names the tombstone; the public log shows only the per-pack pseudonym',
      },
      gacha_id: NOT_PERSONAL,
      after_head: NOT_PERSONAL,
      receipt_hash: NOT_PERSONAL,
    },
  },
  draw_wins: {
    owner: 'draw',
    columns: {
      member_id: {
        holds: ['member-id'],
        onDeletion: 'keep',
        why: 'the member’s id: after 退会 it names the tombstone, which identifies nobody',
      },
      gacha_id: NOT_PERSONAL,
      tier_id: NOT_PERSONAL,
    },
  },
  draws: {
    owner: 'draw',
    columns: {
      member_id: {
        holds: ['member-id'],
        onDeletion: 'keep',
        why: 'the member’s id: after 退会 it names the tombstone, which identifies nobody',
      },
      idem_key: NOT_PERSONAL,
      request_hash: NOT_PERSONAL,
      gacha_id: NOT_PERSONAL,
      status: NOT_PERSONAL,
      error_code: NOT_PERSONAL,
      error_details: NOT_PERSONAL,
    },
  },
  farm_actions: {
    owner: 'farm',
    columns: {
      member_id: {
        holds: ['member-id'],
        onDeletion: 'keep',
        why: 'the member’s id: after 退会 it names the tombstone, which identifies nobody',
      },
      kind: NOT_PERSONAL,
      seed_id: NOT_PERSONAL,
      friend_id: {
        holds: ['member-id'],
        onDeletion: 'keep',
        why: 'the member’s id: after 退会 it names the tombstone, which identifies nobody',
      },
      detail: NOT_PERSONAL,
    },
  },
  farm_days: {
    owner: 'farm',
    columns: {
      member_id: {
        holds: ['member-id'],
        onDeletion: 'keep',
        why: 'the member’s id: after 退会 it names the tombstone, which identifies nobody',
      },
    },
  },
  farm_plots: {
    owner: 'farm',
    columns: {
      member_id: {
        holds: ['member-id'],
        onDeletion: 'keep',
        why: 'the member’s id: after 退会 it names the tombstone, which identifies nobody',
      },
      seed_id: NOT_PERSONAL,
    },
  },
  farm_rules: {
    owner: 'farm',
    columns: {
      updated_by: NOT_PERSONAL,
    },
  },
  farm_seeds: {
    owner: 'farm',
    columns: {
      id: NOT_PERSONAL,
      name: NOT_PERSONAL,
      art: NOT_PERSONAL,
    },
  },
  fraud_signals: {
    owner: 'risk',
    columns: {
      kind: NOT_PERSONAL,
      member_id: {
        holds: ['member-id'],
        onDeletion: 'keep',
        why: 'the member’s id: after 退会 it names the tombstone, which identifies nobody',
      },
      key: {
        holds: ['fingerprint'],
        onDeletion: 'keep',
        why: 'a keyed hash (HMAC) or an order id or a day, never a readable value',
      },
      evidence: {
        holds: ['ip', 'user-agent'],
        onDeletion: 'redact',
        why: 'the shared-device label (IP・user agent) is dropped from the signals raised on the member; counts and member ids stay for fraud prevention (個人情報保護法 18条3項 / legitimate interest)',
      },
      status: NOT_PERSONAL,
      decided_by: NOT_PERSONAL,
      decided_label: {
        holds: ['free-text'],
        onDeletion: 'keep',
        why: 'the staff’s decision and its words, kept for fraud prevention',
      },
      decision_note: {
        holds: ['free-text'],
        onDeletion: 'redact',
        why: 'the staff’s words on the decision, kept for fraud prevention with the member’s identifiers redacted',
      },
    },
  },
  friendships: {
    owner: 'friends',
    columns: {
      member_low: {
        holds: ['member-id'],
        onDeletion: 'keep',
        why: 'the member’s id: after 退会 it names the tombstone, which identifies nobody',
      },
      member_high: {
        holds: ['member-id'],
        onDeletion: 'keep',
        why: 'the member’s id: after 退会 it names the tombstone, which identifies nobody',
      },
      requested_by: {
        holds: ['member-id'],
        onDeletion: 'keep',
        why: 'the member’s id: after 退会 it names the tombstone, which identifies nobody',
      },
      status: NOT_PERSONAL,
      decided_by: {
        holds: ['member-id'],
        onDeletion: 'keep',
        why: 'the member’s id: after 退会 it names the tombstone, which identifies nobody',
      },
    },
  },
  gacha_lots: {
    owner: 'gacha',
    columns: {
      gacha_id: NOT_PERSONAL,
      tier_id: NOT_PERSONAL,
      member_id: {
        holds: ['member-id'],
        onDeletion: 'keep',
        why: 'the member’s id: after 退会 it names the tombstone, which identifies nobody',
      },
    },
  },
  gacha_member_draws: {
    owner: 'draw',
    columns: {
      gacha_id: NOT_PERSONAL,
      member_id: {
        holds: ['member-id'],
        onDeletion: 'keep',
        why: 'the member’s id: after 退会 it names the tombstone, which identifies nobody',
      },
    },
  },
  gacha_beacon_terms: {
    owner: 'gacha',
    columns: {
      gacha_id: NOT_PERSONAL,
      chain_hash: NOT_PERSONAL,
      scheme: NOT_PERSONAL,
      public_key: NOT_PERSONAL,
      receipt_key: NOT_PERSONAL,
    },
  },
  gacha_secrets: {
    owner: 'gacha',
    columns: {
      gacha_id: NOT_PERSONAL,
      seed: NOT_PERSONAL,
      reveal_salt: NOT_PERSONAL,
    },
  },
  gacha_tiers: {
    owner: 'gacha',
    columns: {
      id: NOT_PERSONAL,
      gacha_id: NOT_PERSONAL,
      label: NOT_PERSONAL,
      effect: NOT_PERSONAL,
      card_name: NOT_PERSONAL,
      card_image_path: NOT_PERSONAL,
      rarity: NOT_PERSONAL,
      card_grade: NOT_PERSONAL,
      card_set: NOT_PERSONAL,
      card_number: NOT_PERSONAL,
      card_condition: NOT_PERSONAL,
      certificate_company: NOT_PERSONAL,
      certificate_number: NOT_PERSONAL,
      card_photo_sha256: NOT_PERSONAL,
      card_photo_original_path: NOT_PERSONAL,
      pitari_of: NOT_PERSONAL,
      ceiling_of: NOT_PERSONAL,
    },
  },
  gachas: {
    owner: 'gacha',
    columns: {
      id: NOT_PERSONAL,
      genre_id: NOT_PERSONAL,
      title: NOT_PERSONAL,
      image_path: NOT_PERSONAL,
      status: NOT_PERSONAL,
      tags: NOT_PERSONAL,
      description: NOT_PERSONAL,
      commitment: NOT_PERSONAL,
      draw_mode: NOT_PERSONAL,
    },
  },
  genres: {
    owner: 'gacha',
    columns: {
      id: NOT_PERSONAL,
      name: NOT_PERSONAL,
      aliases: NOT_PERSONAL,
      icon_path: NOT_PERSONAL,
    },
  },
  idempotent_requests: {
    owner: 'idempotency',
    columns: {
      member_id: {
        holds: ['member-id'],
        onDeletion: 'erase',
        why: 'the member’s id: the whole row is deleted',
      },
      key: NOT_PERSONAL,
      operation: NOT_PERSONAL,
      request_hash: NOT_PERSONAL,
      body: {
        holds: ['free-text'],
        onDeletion: 'erase',
        why: 'a stored answer may repeat what the member sent: the member’s rows are deleted',
      },
    },
  },
  inquiries: {
    owner: 'support',
    columns: {
      reference: NOT_PERSONAL,
      member_id: {
        holds: ['member-id'],
        onDeletion: 'keep',
        why: 'the member’s id: after 退会 it names the tombstone, which identifies nobody',
      },
      email: { holds: ['email'], onDeletion: 'pseudonymise', why: 'becomes deleted-<id>@invalid (RFC 6761)' },
      category: NOT_PERSONAL,
      related_kind: NOT_PERSONAL,
      related_id: NOT_PERSONAL,
      subject: { holds: ['free-text'], onDeletion: 'erase', why: 'the member’s words: replaced by 〔退会により削除〕' },
      status: NOT_PERSONAL,
      assignee_id: NOT_PERSONAL,
      internal_note: {
        holds: ['free-text'],
        onDeletion: 'redact',
        why: 'the staff’s note stays with the member’s identifiers redacted',
      },
    },
  },
  inquiry_attachments: {
    owner: 'support',
    columns: {
      storage_key: {
        holds: ['image'],
        onDeletion: 'erase',
        why: 'the rows are deleted and the images (inquiries/ in the media store) removed right after the commit (and by the privacy.finish-deletions sweep)',
      },
      content_type: NOT_PERSONAL,
    },
  },
  inquiry_messages: {
    owner: 'support',
    columns: {
      author: NOT_PERSONAL,
      staff_id: NOT_PERSONAL,
      body: {
        holds: ['free-text', 'phone', 'email', 'name', 'address'],
        onDeletion: 'erase',
        why: 'the member’s messages are replaced by 〔退会により削除〕; the staff’s answers stay (the record of what the shop answered, decision 024) with the member’s identifiers redacted',
      },
    },
  },
  inquiry_reply_templates: {
    owner: 'support',
    columns: {
      title: NOT_PERSONAL,
      body: NOT_PERSONAL,
    },
  },
  invitation_codes: {
    owner: 'invitation',
    columns: {
      member_id: {
        holds: ['member-id'],
        onDeletion: 'keep',
        why: 'the member’s id: after 退会 it names the tombstone, which identifies nobody',
      },
      code: {
        holds: ['pseudonym'],
        onDeletion: 'keep',
        why: 'the member’s random invitation code: names nobody once the account is a tombstone; kept with the settled invitations',
      },
    },
  },
  invitation_watermarks: {
    owner: 'invitation',
    columns: {
      name: NOT_PERSONAL,
      id: NOT_PERSONAL,
    },
  },
  invitations: {
    owner: 'invitation',
    columns: {
      inviter_id: {
        holds: ['member-id'],
        onDeletion: 'keep',
        why: 'the member’s id: after 退会 it names the tombstone, which identifies nobody',
      },
      invitee_id: {
        holds: ['member-id'],
        onDeletion: 'keep',
        why: 'the member’s id: after 退会 it names the tombstone, which identifies nobody',
      },
      code: NOT_PERSONAL,
      phone_hash: {
        holds: ['fingerprint'],
        onDeletion: 'keep',
        why: 'a keyed hash (HMAC) of the verified number, never the number: kept so that one number earns one invitation bonus (fraud prevention, decision 038)',
      },
      outcome: NOT_PERSONAL,
      refusal: NOT_PERSONAL,
    },
  },
  login_bonus_claims: {
    owner: 'bonus',
    columns: {
      member_id: {
        holds: ['member-id'],
        onDeletion: 'keep',
        why: 'the member’s id: after 退会 it names the tombstone, which identifies nobody',
      },
    },
  },
  mail_preferences: {
    owner: 'mailbox',
    columns: {
      member_id: {
        holds: ['member-id'],
        onDeletion: 'keep',
        why: 'the member’s id: after 退会 it names the tombstone, which identifies nobody',
      },
    },
  },
  mail_states: {
    owner: 'mailbox',
    columns: {
      member_id: {
        holds: ['member-id'],
        onDeletion: 'keep',
        why: 'the member’s id: after 退会 it names the tombstone, which identifies nobody',
      },
    },
  },
  mails: {
    owner: 'mailbox',
    columns: {
      audience: NOT_PERSONAL,
      member_id: {
        holds: ['member-id'],
        onDeletion: 'keep',
        why: 'the member’s id: after 退会 it names the tombstone, which identifies nobody',
      },
      segment: NOT_PERSONAL,
      category: NOT_PERSONAL,
      subject: {
        holds: ['free-text', 'name'],
        onDeletion: 'erase',
        why: 'the shop’s messages; a personal mail’s subject and body (which may name the member) are replaced by 〔退会により削除〕 (its present stays a ledger grant); broadcasts, written to everyone, stay',
      },
      body: {
        holds: ['free-text', 'name'],
        onDeletion: 'erase',
        why: 'the shop’s messages; a personal mail’s subject and body (which may name the member) are replaced by 〔退会により削除〕 (its present stays a ledger grant); broadcasts, written to everyone, stay',
      },
      attachment_reason: NOT_PERSONAL,
      dedupe_key: NOT_PERSONAL,
      created_by: NOT_PERSONAL,
    },
  },
  member_addresses: {
    owner: 'shipping',
    columns: {
      member_id: {
        holds: ['member-id'],
        onDeletion: 'erase',
        why: 'the member’s id: the whole row is deleted',
      },
      sealed: {
        holds: ['address', 'name', 'phone'],
        onDeletion: 'erase',
        why: 'the address book (sealed, decision 019): the rows are deleted',
      },
      key_id: NOT_PERSONAL,
    },
  },
  member_daily_rollups: {
    owner: 'identity',
    columns: {},
  },
  member_limit_changes: {
    owner: 'limits',
    columns: {
      member_id: {
        holds: ['member-id'],
        onDeletion: 'keep',
        why: 'the member’s id: after 退会 it names the tombstone, which identifies nobody',
      },
      kind: NOT_PERSONAL,
      action: NOT_PERSONAL,
    },
  },
  member_limits: {
    owner: 'limits',
    columns: {
      member_id: {
        holds: ['member-id'],
        onDeletion: 'keep',
        why: 'the member’s id: after 退会 it names the tombstone, which identifies nobody',
      },
    },
  },
  member_monthly_ranks: {
    owner: 'progression',
    columns: {
      member_id: {
        holds: ['member-id'],
        onDeletion: 'keep',
        why: 'the member’s id: after 退会 it names the tombstone, which identifies nobody',
      },
    },
  },
  member_notes: {
    owner: 'admin',
    columns: {
      member_id: {
        holds: ['member-id'],
        onDeletion: 'keep',
        why: 'the member’s id: after 退会 it names the tombstone, which identifies nobody',
      },
      author_id: NOT_PERSONAL,
      author_label: { holds: ['name'], onDeletion: 'keep', why: 'the staff member’s name' },
      text: {
        holds: ['free-text'],
        onDeletion: 'redact',
        why: 'staff notes on the member stay (fraud and dispute history) with the member’s identifiers redacted',
      },
    },
  },
  member_restrictions: {
    owner: 'identity',
    columns: {
      member_id: {
        holds: ['member-id'],
        onDeletion: 'keep',
        why: 'the member’s id in the record of a hold or ban, its appeal and the decision (decision 084): after 退会 it names the tombstone',
      },
      kind: NOT_PERSONAL,
      category: NOT_PERSONAL,
      started_by: NOT_PERSONAL,
      ended_by: NOT_PERSONAL,
      link_hash: NOT_PERSONAL,
      appeal_outcome: NOT_PERSONAL,
      appeal_statement: {
        holds: ['free-text'],
        onDeletion: 'redact',
        why: 'the operator’s statement to the member stays (the record of what the shop decided and told) with the member’s identifiers redacted',
      },
      appeal_decided_by: NOT_PERSONAL,
    },
  },
  member_sponsorships: {
    owner: 'identity',
    columns: {
      member_id: {
        holds: ['member-id'],
        onDeletion: 'keep',
        why: 'the member’s id in the record of a sponsorship (景品表示法: what was labelled PR and why): after 退会 it names the tombstone',
      },
      kind: NOT_PERSONAL,
    },
  },
  member_progress: {
    owner: 'progression',
    columns: {
      member_id: {
        holds: ['member-id'],
        onDeletion: 'keep',
        why: 'the member’s id: after 退会 it names the tombstone, which identifies nobody',
      },
    },
  },
  member_rollup_marks: {
    owner: 'identity',
    columns: {
      name: NOT_PERSONAL,
    },
  },
  module_sql: {
    owner: 'db',
    columns: {
      file: NOT_PERSONAL,
      checksum: NOT_PERSONAL,
    },
  },
  outbound_messages: {
    owner: 'messaging',
    columns: {
      channel: NOT_PERSONAL,
      recipient: {
        holds: ['email', 'phone'],
        onDeletion: 'pseudonymise',
        why: 'becomes deleted-<id>@invalid: at once for finished messages, after sending for the queued notice (privacy.finish-deletions)',
      },
      template: NOT_PERSONAL,
      subject: { holds: ['free-text', 'name', 'email'], onDeletion: 'erase', why: 'blanked with the recipient' },
      text_body: { holds: ['free-text', 'name', 'email'], onDeletion: 'erase', why: 'blanked with the recipient' },
      html_body: { holds: ['free-text', 'name', 'email'], onDeletion: 'erase', why: 'blanked with the recipient' },
      member_id: {
        holds: ['member-id'],
        onDeletion: 'keep',
        why: 'the member’s id: after 退会 it names the tombstone, which identifies nobody',
      },
      status: NOT_PERSONAL,
      last_error: {
        holds: ['email'],
        onDeletion: 'erase',
        why: 'an SMTP error may quote the address: blanked with the recipient',
      },
      provider_message_id: NOT_PERSONAL,
      delivery_status: NOT_PERSONAL,
    },
  },
  payment_events: {
    owner: 'payments',
    columns: {
      provider: NOT_PERSONAL,
      event_id: NOT_PERSONAL,
      type: NOT_PERSONAL,
      provider_ref: NOT_PERSONAL,
      hint: NOT_PERSONAL,
      payload: {
        holds: ['email', 'name', 'phone', 'address'],
        onDeletion: 'redact',
        why: 'the provider’s event is kept as the payment’s evidence (法人税法 施行規則 59条: 7 years), with the member’s address, number and name redacted inside it',
      },
      outcome: NOT_PERSONAL,
      last_error: { holds: ['free-text'], onDeletion: 'keep', why: 'the shop’s own processing error' },
    },
  },
  payment_orders: {
    owner: 'payments',
    columns: {
      member_id: {
        holds: ['member-id'],
        onDeletion: 'keep',
        why: 'the member’s id: after 退会 it names the tombstone, which identifies nobody',
      },
      coin_pack_id: NOT_PERSONAL,
      method: NOT_PERSONAL,
      channel: NOT_PERSONAL,
      status: NOT_PERSONAL,
      pack_name: {
        holds: ['transaction'],
        onDeletion: 'keep',
        why: 'the order: kept for the bookkeeping law (法人税法 126条 / 施行規則 59条: 7 years; 会社法 432条: 10 years) and for refunds and chargebacks; holds no name, address or email',
      },
      provider_ref: {
        holds: ['transaction'],
        onDeletion: 'keep',
        why: 'the order: kept for the bookkeeping law (法人税法 126条 / 施行規則 59条: 7 years; 会社法 432条: 10 years) and for refunds and chargebacks; holds no name, address or email',
      },
      checkout_url: {
        holds: ['transaction'],
        onDeletion: 'keep',
        why: 'the order: kept for the bookkeeping law (法人税法 126条 / 施行規則 59条: 7 years; 会社法 432条: 10 years) and for refunds and chargebacks; holds no name, address or email',
      },
      provider_payment_id: {
        holds: ['transaction'],
        onDeletion: 'keep',
        why: 'the order: kept for the bookkeeping law (法人税法 126条 / 施行規則 59条: 7 years; 会社法 432条: 10 years) and for refunds and chargebacks; holds no name, address or email',
      },
      failure_reason: {
        holds: ['transaction'],
        onDeletion: 'keep',
        why: 'the order: kept for the bookkeeping law (法人税法 126条 / 施行規則 59条: 7 years; 会社法 432条: 10 years) and for refunds and chargebacks; holds no name, address or email',
      },
      receipt_no: {
        holds: ['transaction'],
        onDeletion: 'keep',
        why: 'the order: kept for the bookkeeping law (法人税法 126条 / 施行規則 59条: 7 years; 会社法 432条: 10 years) and for refunds and chargebacks; holds no name, address or email',
      },
      draw_gacha_id: NOT_PERSONAL,
    },
  },
  prize_conversions: {
    owner: 'draw',
    columns: {
      member_id: {
        holds: ['member-id'],
        onDeletion: 'keep',
        why: 'the member’s id: after 退会 it names the tombstone, which identifies nobody',
      },
    },
  },
  prizes: {
    owner: 'draw',
    columns: {
      member_id: {
        holds: ['member-id'],
        onDeletion: 'keep',
        why: 'the member’s id: after 退会 it names the tombstone, which identifies nobody',
      },
      gacha_id: NOT_PERSONAL,
      tier_id: NOT_PERSONAL,
      status: NOT_PERSONAL,
      pitari_of: NOT_PERSONAL,
    },
  },
  progression_levels: {
    owner: 'progression',
    columns: {},
  },
  promo_codes: {
    owner: 'promo',
    columns: {
      code: NOT_PERSONAL,
      batch_id: NOT_PERSONAL,
      label: NOT_PERSONAL,
      created_by: NOT_PERSONAL,
    },
  },
  promo_redemptions: {
    owner: 'promo',
    columns: {
      member_id: {
        holds: ['member-id'],
        onDeletion: 'keep',
        why: 'the member’s id: after 退会 it names the tombstone, which identifies nobody',
      },
    },
  },
  purchase_profiles: {
    owner: 'payments',
    columns: {
      member_id: {
        holds: ['member-id'],
        onDeletion: 'keep',
        why: 'the member’s id: after 退会 it names the tombstone, which identifies nobody',
      },
      hold_reason: {
        holds: ['free-text'],
        onDeletion: 'keep',
        why: 'the system’s or staff’s reason for a purchase hold (資金決済法 / fraud prevention)',
      },
    },
  },
  rank_months: {
    owner: 'progression',
    columns: {
      cursor: NOT_PERSONAL,
    },
  },
  ranking_marks: {
    owner: 'ranking',
    columns: {
      name: NOT_PERSONAL,
    },
  },
  ranking_member_exp: {
    owner: 'ranking',
    columns: {
      member_id: {
        holds: ['member-id'],
        onDeletion: 'keep',
        why: 'the member’s id: after 退会 it names the tombstone, which identifies nobody',
      },
    },
  },
  ranking_scores: {
    owner: 'ranking',
    columns: {
      board: NOT_PERSONAL,
      member_id: {
        holds: ['member-id'],
        onDeletion: 'keep',
        why: 'the member’s id: after 退会 it names the tombstone, which identifies nobody',
      },
      hit_gacha_id: NOT_PERSONAL,
      hit_tier_id: NOT_PERSONAL,
    },
  },
  rate_limits: {
    owner: 'identity',
    columns: {
      id: NOT_PERSONAL,
      key: {
        holds: ['email', 'phone', 'ip', 'member-id'],
        onDeletion: 'erase',
        why: 'keys that name the member’s address, number or id are deleted; keys by IP address expire with their window (at most a day). With REDIS_URL the Redis keys expire the same way',
      },
    },
  },
  risk_fingerprints: {
    owner: 'risk',
    columns: {
      kind: NOT_PERSONAL,
      key_hash: {
        holds: ['fingerprint'],
        onDeletion: 'keep',
        why: 'a keyed hash (HMAC) of a device, an address or a number: kept for fraud prevention (a deleted member who signs up again is still recognised)',
      },
      member_id: {
        holds: ['member-id'],
        onDeletion: 'keep',
        why: 'the member’s id: after 退会 it names the tombstone, which identifies nobody',
      },
      label: {
        holds: ['ip', 'user-agent'],
        onDeletion: 'erase',
        why: 'the readable label (IP・user agent) is blanked',
      },
    },
  },
  risk_watermarks: {
    owner: 'risk',
    columns: {
      name: NOT_PERSONAL,
      id: NOT_PERSONAL,
    },
  },
  sales_daily_rollups: {
    owner: 'payments',
    columns: {
      method: NOT_PERSONAL,
    },
  },
  sales_rollup_marks: {
    owner: 'payments',
    columns: {
      name: NOT_PERSONAL,
    },
  },
  sandbox_payments: {
    owner: 'payments',
    columns: {
      id: NOT_PERSONAL,
      merchant_reference: NOT_PERSONAL,
      description: {
        holds: ['transaction'],
        onDeletion: 'keep',
        why: 'the development payment stand-in’s record: the coin pack’s name and amount, nothing of the member',
      },
      return_url: NOT_PERSONAL,
      cancel_url: NOT_PERSONAL,
      webhook_url: NOT_PERSONAL,
      status: NOT_PERSONAL,
    },
  },
  sessions: {
    owner: 'identity',
    columns: {
      id: NOT_PERSONAL,
      token: {
        holds: ['ip', 'user-agent', 'secret'],
        onDeletion: 'erase',
        why: 'every session of the member is deleted (sign-ins from an address)',
      },
      ip_address: {
        holds: ['ip', 'user-agent', 'secret'],
        onDeletion: 'erase',
        why: 'every session of the member is deleted (sign-ins from an address)',
      },
      user_agent: {
        holds: ['ip', 'user-agent', 'secret'],
        onDeletion: 'erase',
        why: 'every session of the member is deleted (sign-ins from an address)',
      },
      user_id: {
        holds: ['member-id'],
        onDeletion: 'erase',
        why: 'the member’s id: the whole row is deleted',
      },
      impersonated_by: { holds: ['member-id'], onDeletion: 'erase', why: 'deleted with the session' },
    },
  },
  shipping_events: {
    owner: 'shipping',
    columns: {
      kind: NOT_PERSONAL,
      status: NOT_PERSONAL,
      note: {
        holds: ['free-text'],
        onDeletion: 'keep',
        why: 'the shipping desk’s own notes and names, kept with the request',
      },
      actor: {
        holds: ['free-text'],
        onDeletion: 'keep',
        why: 'the shipping desk’s own notes and names, kept with the request',
      },
    },
  },
  shipping_request_items: {
    owner: 'shipping',
    columns: {},
  },
  shipping_requests: {
    owner: 'shipping',
    columns: {
      member_id: {
        holds: ['member-id'],
        onDeletion: 'keep',
        why: 'the member’s id: after 退会 it names the tombstone, which identifies nobody',
      },
      idem_key: NOT_PERSONAL,
      request_hash: NOT_PERSONAL,
      status: NOT_PERSONAL,
      address_sealed: {
        holds: ['address', 'name', 'phone'],
        onDeletion: 'keep',
        why: 'the sealed copy (AES-256-GCM, decision 019; no plaintext anywhere) stays: a request not yet shipped must still reach the member, and a shipped one is the record of goods delivered (法人税法 施行規則 59条: 取引に関する書類, 7 years; 古物営業法 16条・18条 where a conversion is a purchase of 古物: 3 years). Opened only by shipping staff, audited',
      },
      address_key_id: NOT_PERSONAL,
      carrier: NOT_PERSONAL,
      tracking_number: {
        holds: ['transaction'],
        onDeletion: 'keep',
        why: 'the carrier’s number: the record of the parcel',
      },
      internal_note: {
        holds: ['free-text'],
        onDeletion: 'redact',
        why: 'the shipping desk’s note stays with the request, with the member’s identifiers redacted',
      },
    },
  },
  shipping_substitutions: {
    owner: 'shipping',
    columns: {
      condition: NOT_PERSONAL,
      operator_id: NOT_PERSONAL,
      operator_label: {
        holds: ['free-text'],
        onDeletion: 'keep',
        why: 'the shop’s note on a substituted card, kept with the request',
      },
      note_for_member: {
        holds: ['free-text'],
        onDeletion: 'keep',
        why: 'the shop’s note on a substituted card, kept with the request',
      },
    },
  },
  shop_state: {
    owner: 'shop',
    columns: {
      maintenance_message: NOT_PERSONAL,
      changed_by: NOT_PERSONAL,
    },
  },
  shop_closures: {
    owner: 'shop',
    columns: {
      notice: NOT_PERSONAL,
      announced_by: {
        holds: ['email'],
        onDeletion: 'keep',
        why: 'the staff member who announced the closure, not a member',
      },
      cancelled_by: { holds: ['email'], onDeletion: 'keep', why: 'the staff member who cancelled it, not a member' },
    },
  },
  shop_closure_notices: {
    owner: 'shop',
    columns: {
      member_id: {
        holds: ['member-id'],
        onDeletion: 'keep',
        why: 'who was told of the closure and their balances (資金決済法 第20条: the notice to holders): after 退会 it names the tombstone',
      },
    },
  },
  shop_closure_refunds: {
    owner: 'shop',
    columns: {
      member_id: {
        holds: ['member-id'],
        onDeletion: 'keep',
        why: 'the 払戻し and its transfer are accounting records (資金決済法 第20条, 会社法 帳簿保存): after 退会 it names the tombstone',
      },
      sealed_account: {
        holds: ['name', 'transaction'],
        onDeletion: 'keep',
        why: 'the bank account (holder name in kana, number) the refund is sent to, sealed like an address (decision 019): the transfer must be provable for the accounts',
      },
      key_id: NOT_PERSONAL,
      transfer_reference: NOT_PERSONAL,
      paid_by: {
        holds: ['email'],
        onDeletion: 'keep',
        why: 'the staff member who recorded the transfer, not a member',
      },
    },
  },
  staff_role_requests: {
    owner: 'admin',
    columns: {
      kind: NOT_PERSONAL,
      subject: {
        holds: ['member-id', 'email'],
        onDeletion: 'keep',
        why: 'staff, not members: the staff member (id) or the invited address of a change that makes or unmakes an admin (decision 050)',
      },
      member_id: {
        holds: ['member-id'],
        onDeletion: 'keep',
        why: 'staff, not members: whose admin role the request changes',
      },
      email: {
        holds: ['email'],
        onDeletion: 'keep',
        why: 'staff, not members: the invited address of an admin invitation',
      },
      from_role: NOT_PERSONAL,
      role: NOT_PERSONAL,
      permissions: NOT_PERSONAL,
      status: NOT_PERSONAL,
      requested_by: NOT_PERSONAL,
      requested_label: {
        holds: ['email'],
        onDeletion: 'keep',
        why: 'staff, not members: the operator who asked or decided (the audit log names them too)',
      },
      decided_by: NOT_PERSONAL,
      decided_label: {
        holds: ['email'],
        onDeletion: 'keep',
        why: 'staff, not members: the operator who asked or decided (the audit log names them too)',
      },
      decision_note: {
        holds: ['free-text'],
        onDeletion: 'keep',
        why: 'staff, not members: an admin’s reason for a decision about staff access',
      },
    },
  },
  mail_send_requests: {
    owner: 'admin',
    columns: {
      request_key: NOT_PERSONAL,
      draft: {
        holds: ['member-id', 'free-text'],
        onDeletion: 'keep',
        why: 'the shop’s own message as confirmed by staff (decision 052), like mails.subject and mails.body; a personal mail names the member by id, which after 退会 names the tombstone',
      },
      subject: {
        holds: ['free-text'],
        onDeletion: 'keep',
        why: 'the shop’s own message as confirmed by staff (decision 052), like mails.subject',
      },
      status: NOT_PERSONAL,
      requested_by: NOT_PERSONAL,
      requested_label: {
        holds: ['email'],
        onDeletion: 'keep',
        why: 'staff, not members: the operator who asked or decided (the audit log names them too)',
      },
      decided_by: NOT_PERSONAL,
      decided_label: {
        holds: ['email'],
        onDeletion: 'keep',
        why: 'staff, not members: the operator who asked or decided (the audit log names them too)',
      },
      decision_note: {
        holds: ['free-text'],
        onDeletion: 'keep',
        why: 'an admin’s reason for rejecting a mail: about the mail, written by staff',
      },
    },
  },
  staff_invitations: {
    owner: 'admin',
    columns: {
      email: { holds: ['email'], onDeletion: 'keep', why: 'staff, not members: an invitation to the admin area' },
      role: NOT_PERSONAL,
      permissions: NOT_PERSONAL,
      token_hash: NOT_PERSONAL,
      invited_by: NOT_PERSONAL,
      accepted_by: NOT_PERSONAL,
    },
  },
  staff_permissions: {
    owner: 'admin',
    columns: {
      member_id: {
        holds: ['member-id'],
        onDeletion: 'keep',
        why: 'the member’s id: after 退会 it names the tombstone, which identifies nobody',
      },
      permission: NOT_PERSONAL,
      granted_by: NOT_PERSONAL,
    },
  },
  stock_cards: {
    owner: 'gacha',
    columns: {
      card_name: NOT_PERSONAL,
      card_set: NOT_PERSONAL,
      card_number: NOT_PERSONAL,
      card_grade: NOT_PERSONAL,
      identity_key: NOT_PERSONAL,
    },
  },
  stock_movements: {
    owner: 'gacha',
    columns: {
      kind: NOT_PERSONAL,
      gacha_id: NOT_PERSONAL,
      note: NOT_PERSONAL,
    },
  },
  stock_prize_cards: {
    owner: 'gacha',
    columns: {},
  },
  two_factors: {
    owner: 'identity',
    columns: {
      id: NOT_PERSONAL,
      secret: { holds: ['secret'], onDeletion: 'erase', why: 'the second factor: the row is deleted' },
      backup_codes: { holds: ['secret'], onDeletion: 'erase', why: 'the second factor: the row is deleted' },
      user_id: {
        holds: ['member-id'],
        onDeletion: 'erase',
        why: 'the member’s id: the whole row is deleted',
      },
    },
  },
  unused_paid_snapshots: {
    owner: 'payments',
    columns: {},
  },
  users: {
    owner: 'identity',
    columns: {
      id: {
        holds: ['member-id'],
        onDeletion: 'keep',
        why: 'the member’s id: after 退会 it names the tombstone, which identifies nobody',
      },
      name: { holds: ['name'], onDeletion: 'pseudonymise', why: 'the nickname becomes 退会済み会員' },
      email: {
        holds: ['email'],
        onDeletion: 'pseudonymise',
        why: 'becomes deleted-<id>@invalid (RFC 6761), freeing the address for a new sign-up',
      },
      image: { holds: ['image', 'birthday', 'phone'], onDeletion: 'erase', why: 'set to null on the tombstone' },
      role: NOT_PERSONAL,
      ban_reason: { holds: ['free-text'], onDeletion: 'pseudonymise', why: 'set to 退会 (the tombstone is banned)' },
      birthday: { holds: ['image', 'birthday', 'phone'], onDeletion: 'erase', why: 'set to null on the tombstone' },
      phone_number: { holds: ['image', 'birthday', 'phone'], onDeletion: 'erase', why: 'set to null on the tombstone' },
    },
  },
  verifications: {
    owner: 'identity',
    columns: {
      id: NOT_PERSONAL,
      identifier: {
        holds: ['email', 'phone', 'secret'],
        onDeletion: 'erase',
        why: 'rows keyed by the member’s address, number or id (links, SMS codes, trusted devices) are deleted',
      },
      value: {
        holds: ['email', 'phone', 'secret'],
        onDeletion: 'erase',
        why: 'rows keyed by the member’s address, number or id (links, SMS codes, trusted devices) are deleted',
      },
    },
  },
  waiting_room_entries: {
    owner: 'waitingroom',
    columns: {
      gacha_id: NOT_PERSONAL,
      member_id: {
        holds: ['member-id'],
        onDeletion: 'keep',
        why: 'the member’s id in a pack’s queue (decision 087): after 退会 it names the tombstone, which identifies nobody',
      },
      phone_key: {
        holds: ['fingerprint'],
        onDeletion: 'keep',
        why: 'a keyed hash (HMAC) of the verified number, never the number: one place per phone in a pack’s queue, kept so that a member who leaves and signs up again does not take a second place (decision 087)',
      },
    },
  },
  waiting_rooms: {
    owner: 'waitingroom',
    columns: {
      gacha_id: NOT_PERSONAL,
    },
  },
  wallets: {
    owner: 'wallet',
    columns: {
      member_id: {
        holds: ['member-id'],
        onDeletion: 'keep',
        why: 'the member’s id: after 退会 it names the tombstone, which identifies nobody',
      },
    },
  },
};

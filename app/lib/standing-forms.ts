// The forms of /standing/<token>, a banned member's statement link (decisions 084 and 085): the page takes two
// posts, the appeal of the link's restriction and, while a closing shop takes them, the 払戻し application.

/** The `intent` field that marks the 払戻し application (the appeal's is `appeal`). */
export const REFUND_INTENT = 'refund';

// What the shipping desk's page and its server share: the names of form fields both sides read.

/** The ship form's field that names the open inquiries the operator saw in the confirmation (comma-separated ids). */
export const INQUIRIES_SEEN_FIELD = 'inquiriesSeen';

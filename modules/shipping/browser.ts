// The shipping module's browser door: what the address form needs in the browser and nothing that
// reaches a table or the postal data (the main door would carry both into the page's scripts).
export {
  PREFECTURES,
  MAX_ADDRESSES_PER_MEMBER,
  ADDRESS_FIELD_LIMITS,
  ADDRESS_FIELD_LABELS,
  readPostalCode,
  formatPostalCode,
  postalFill,
  type PostalFill,
  type Prefecture,
} from './address-text';

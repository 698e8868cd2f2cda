// The shipping module's door (addresses, shipping requests, the promised date, the fulfilment desk).
// Being built for issue 12; the address book is here. Pure pieces for the browser: '#modules/shipping/browser'.
export {
  PREFECTURES,
  MAX_ADDRESSES_PER_MEMBER,
  ADDRESS_FIELD_LIMITS,
  ADDRESS_FIELD_LABELS,
  isPrefecture,
  readPostalCode,
  formatPostalCode,
  toKatakana,
  postalFill,
  type PostalFill,
  type Prefecture,
} from './address-text';
export { lookupPostalCode, type PostalPlace, type PostalRefusalCode } from './postal';
export {
  addressInputSchema,
  postalCodeSchema,
  readAddressPhone,
  ADDRESS_MESSAGES,
  type AddressFields,
  type AddressInput,
} from './address-input';
export { AddressSealError, type AddressKey, type AddressKeyring } from './sealing';
export {
  ADDRESS_REFUSAL_CODES,
  listAddresses,
  getAddress,
  createAddress,
  updateAddress,
  deleteAddress,
  setDefaultAddress,
  sealedAddressForShipping,
  openShippingAddress,
  resealShippingAddress,
  rekeyAddresses,
  type AddressRefusalCode,
  type MemberAddress,
} from './addresses';

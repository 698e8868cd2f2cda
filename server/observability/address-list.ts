// METRICS_ALLOW: addresses and CIDR blocks, read once at start and matched with Node's BlockList.
import net from 'node:net';

/** One entry of the list: a network and its prefix length. */
export interface AddressBlock {
  readonly network: string;
  readonly prefix: number;
  readonly family: 'ipv4' | 'ipv6';
}

/**
 * The blocks of a comma-separated list, or what is wrong with it (a plain address is a block of one).
 * @example parseAddressList('10.0.8.0/24, ::1') // [{ network: '10.0.8.0', prefix: 24, family: 'ipv4' }, { network: '::1', prefix: 128, family: 'ipv6' }]
 */
export function parseAddressList(text: string): AddressBlock[] | string {
  const blocks: AddressBlock[] = [];
  for (const entry of text.split(',').map((part) => part.trim())) {
    if (entry === '') continue;
    const [address = '', length, extra] = entry.split('/');
    const version = net.isIP(address);
    if (version === 0 || extra !== undefined) return `${entry} is not an address or a CIDR block`;
    const family = version === 4 ? 'ipv4' : 'ipv6';
    const most = version === 4 ? 32 : 128;
    const prefix = length === undefined ? most : Number(length);
    if (!/^\d{1,3}$/.test(length ?? String(most)) || prefix > most)
      return `${entry}: the prefix must be a whole number from 0 to ${most}`;
    blocks.push({ network: address, prefix, family });
  }
  return blocks.length > 0 ? blocks : 'name at least one address or CIDR block';
}

/**
 * Whether an address (as a socket reports it, IPv4-mapped IPv6 included) is in one of the blocks.
 * @example addressMatcher(parseAddressList('10.0.0.0/8') as AddressBlock[])('::ffff:10.1.2.3') === true
 */
export function addressMatcher(blocks: readonly AddressBlock[]): (address: string | undefined) => boolean {
  const list = new net.BlockList();
  for (const block of blocks) list.addSubnet(block.network, block.prefix, block.family);
  return (address) => {
    if (!address) return false;
    const mapped = /^::ffff:(\d{1,3}(?:\.\d{1,3}){3})$/i.exec(address)?.[1];
    const plain = mapped ?? address;
    const version = net.isIP(plain);
    if (version === 0) return false;
    return list.check(plain, version === 4 ? 'ipv4' : 'ipv6');
  };
}

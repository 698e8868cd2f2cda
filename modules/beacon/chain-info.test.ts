// drand's chain info: the schema, quicknet's values, and the chain hash recomputed from three real chains'
// info as drand's repositories publish them (so chainHashOf is drand's derivation, not a guess).
import { describe, expect, it } from 'vitest';
import { beaconSchema, chainHashOf, chainInfoSchema, hashMatchesInfo, QUICKNET, type ChainInfo } from './chain-info';

// League of Entropy mainnet `default` chain (chained, 30 s): drand/drand-client, lib/defaults.ts (DEFAULT_CHAIN_INFO).
const MAINNET_DEFAULT: ChainInfo = {
  public_key: '868f005eb8e6e4ca0a47c8a77ceaa5309a47978a7c71bc5cce96366b5d7a569937c529eeda66c7293784a9402801af31',
  period: 30,
  genesis_time: 1595431050,
  hash: '8990e7a9aaed2ffed73dbd7092123d6f289930540d7651336225dc172e51b2ce',
  groupHash: '176f93498eac9ca337150b46d21dd58673ea4e3581185f869672e59fa4cb390a',
  schemeID: 'pedersen-bls-chained',
  metadata: { beaconID: 'default' },
};

// The testnet's `quicknet-t`: drand/drand-client, lib/defaults.ts (TESTNET_QUICKNET_CHAIN_INFO).
const TESTNET_QUICKNET: ChainInfo = {
  public_key:
    'b15b65b46fb29104f6a4b5d1e11a8da6344463973d423661bb0804846a0ecd1ef93c25057f1c0baab2ac53e56c662b66072f6d84ee791a3382bfb055afab1e6a375538d8ffc451104ac971d2dc9b168e2d3246b0be2015969cbaac298f6502da',
  period: 3,
  genesis_time: 1689232296,
  hash: 'cc9c398442737cbd141526600919edd69f1d6f9b4adb67e4d912fbc64341a9a5',
  groupHash: '40d49d910472d4adb1d67f65db8332f11b4284eecf05c05c5eacd5eef7d40e2d',
  schemeID: 'bls-unchained-g1-rfc9380',
  metadata: { beaconID: 'quicknet-t' },
};

describe('QUICKNET', () => {
  it('is the chain info drand’s repositories give for quicknet, field by field', () => {
    // drand/drand common/chain/info_test.go (TestJsonFromRelay, v1 string), drand/drand-client lib/defaults.ts
    // (QUICKNET_CHAIN_INFO), drand/tlock-js src/drand/defaults.ts and drand/go-clients client/lp2p/example_test.go
    // all state these values.
    const relayAnswer = JSON.parse(
      '{"public_key":"83cf0f2896adee7eb8b5f01fcad3912212c437e0073e911fb90022d3e760183c8c4b450b6a0a6c3ac6a5776a2d1064510d1fec758c921cc22b0e17e63aaf4bcb5ed66304de9cf809bd274ca73bab4af5a6e9c76a4bc09e76eae8991ef5ece45a","period":3,"genesis_time":1692803367,"hash":"52db9ba70e0cc0f6eaf7803dd07447a1f5477735fd3f661792ba94600c84e971","groupHash":"f477d5c89f21a17c863a7f937c6a6d15859414d2be09cd448d4279af331c5d3e","schemeID":"bls-unchained-g1-rfc9380","metadata":{"beaconID":"quicknet"}}',
    );
    expect(chainInfoSchema.parse(relayAnswer)).toEqual(QUICKNET);
    expect(QUICKNET.public_key).toHaveLength(192);
    expect(Object.isFrozen(QUICKNET) && Object.isFrozen(QUICKNET.metadata)).toBe(true);
  });
});

describe('chainHashOf', () => {
  it('derives quicknet’s hash from its info', () => {
    expect(chainHashOf(QUICKNET)).toBe('52db9ba70e0cc0f6eaf7803dd07447a1f5477735fd3f661792ba94600c84e971');
    expect(hashMatchesInfo(QUICKNET)).toBe(true);
  });

  it('leaves the beacon id out for the `default` chain and puts it in for the others', () => {
    expect(chainHashOf(MAINNET_DEFAULT)).toBe(MAINNET_DEFAULT.hash);
    expect(chainHashOf({ ...MAINNET_DEFAULT, metadata: { beaconID: '' } })).toBe(MAINNET_DEFAULT.hash);
    expect(chainHashOf(TESTNET_QUICKNET)).toBe(TESTNET_QUICKNET.hash);
    expect(chainHashOf({ ...QUICKNET, metadata: { beaconID: 'default' } })).not.toBe(QUICKNET.hash);
  });

  it('changes with every hashed field, and not with the scheme (drand does not hash it)', () => {
    const variants: ChainInfo[] = [
      { ...QUICKNET, period: 30 },
      { ...QUICKNET, genesis_time: QUICKNET.genesis_time + 1 },
      { ...QUICKNET, groupHash: TESTNET_QUICKNET.groupHash },
      { ...QUICKNET, public_key: TESTNET_QUICKNET.public_key },
      { ...QUICKNET, metadata: { beaconID: 'quicknet-t' } },
    ];
    for (const variant of variants) expect(hashMatchesInfo(variant)).toBe(false);
    expect(hashMatchesInfo({ ...QUICKNET, schemeID: 'pedersen-bls-chained' })).toBe(true);
  });

  it('reads hex in either case', () => {
    const shouted = { ...QUICKNET, public_key: QUICKNET.public_key.toUpperCase(), hash: QUICKNET.hash.toUpperCase() };
    expect(hashMatchesInfo(shouted)).toBe(true);
  });
});

describe('the schemas', () => {
  it('refuse a chain info that is not one', () => {
    const bad: unknown[] = [
      { ...QUICKNET, period: 0 },
      { ...QUICKNET, period: 2.5 },
      { ...QUICKNET, genesis_time: '1692803367' },
      { ...QUICKNET, hash: QUICKNET.hash.slice(2) },
      { ...QUICKNET, public_key: `${QUICKNET.public_key}0` },
      { ...QUICKNET, public_key: QUICKNET.public_key.replace('8', 'g') },
      { ...QUICKNET, metadata: undefined },
      { ...QUICKNET, schemeID: '' },
    ];
    for (const value of bad) expect(chainInfoSchema.safeParse(value).success).toBe(false);
  });

  it('read a v1 beacon and drop what an unchained beacon does not have', () => {
    const beacon = beaconSchema.parse({
      round: 42,
      randomness: '8ada64bae5c6c0f5540a6a13af56e663240edfbd2c76ac6a8f27671eb7259ce3',
      signature: '95a9f9f5b231b7714de1553105d8ffdf3dcda24cfdb1e689319bccf79a9c8ce430a91b811fbfaf763900bc998b5d686a',
      previous_signature: '',
    });
    expect(Object.keys(beacon).sort()).toEqual(['randomness', 'round', 'signature']);
    expect(beaconSchema.safeParse({ ...beacon, round: 0 }).success).toBe(false);
    expect(beaconSchema.safeParse({ ...beacon, round: 2 ** 53 }).success).toBe(false);
    expect(beaconSchema.safeParse({ ...beacon, randomness: 'zz' }).success).toBe(false);
    expect(beaconSchema.safeParse({ ...beacon, signature: undefined }).success).toBe(false);
  });
});

// A sponsored member's share texts say 【PR】 (decision 083; 景品表示法's ステマ rule): the invitation page's and
// the farm friends page's LINE and X texts, from the moment the operator starts the sponsorship until it ends.
import { describe, expect, it } from 'vitest';
import { useTestDatabase } from '#tests/use-test-database';
import { createMemberWithCoins } from '#tests/fixtures';
import { commandLineOperator, endSponsorshipAsOperator, startSponsorshipAsOperator } from '#modules/admin';
import { loadConfig } from './config';
import { invitationViewOf, labelSponsoredShare } from './invitation';
import { friendsViewOf } from './farm';

const handle = useTestDatabase('sponsored-share');
const operator = commandLineOperator();
const config = () => loadConfig({ DATA_DIR: handle.dataDir, AUTH_SECRET: 'x'.repeat(40) });
const decoded = (url: string) => decodeURIComponent(url);

describe('a sponsored member’s share texts', () => {
  it('open with 【PR】 while the sponsorship lasts, on the invitation and the farm friends pages', async () => {
    const db = handle.db;
    const member = await createMemberWithCoins(db, { paid: 0 });
    const services = { db, config: config() };
    const plain = await invitationViewOf(services, member);
    expect(plain.shareText.startsWith('【PR】')).toBe(false);

    await startSponsorshipAsOperator(db, operator, member, 'affiliate');
    const invitation = await invitationViewOf(services, member);
    expect(invitation.shareText).toBe(`【PR】${plain.shareText}`);
    expect(decoded(invitation.share.x)).toContain('【PR】');
    expect(decoded(invitation.share.line)).toContain('【PR】');
    const friends = await friendsViewOf(services, member);
    expect(decoded(friends.share.x)).toContain('【PR】');

    await endSponsorshipAsOperator(db, operator, member);
    expect((await invitationViewOf(services, member)).shareText).toBe(plain.shareText);
    expect(decoded((await friendsViewOf(services, member)).share.x)).not.toContain('【PR】');
  });

  it('labels nothing for a member who is not sponsored', () => {
    expect(labelSponsoredShare('一緒にオリパを楽しもう！', false)).toBe('一緒にオリパを楽しもう！');
    expect(labelSponsoredShare('一緒にオリパを楽しもう！', true)).toBe('【PR】一緒にオリパを楽しもう！');
  });
});

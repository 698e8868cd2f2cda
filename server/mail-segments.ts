// The mailbox's full segment matcher (docs/decisions/034): rank, genre buyers and inactive members are
// judged here, in the composition layer, because they read modules above the mailbox (progression, draw,
// gacha, identity). One call answers every broadcast of a member's page: each fact is read once per member.
import type { Database } from '#db/client';
import type { SegmentMatcher } from '#modules/mailbox';
import type { MailRecipientCounter } from '#modules/admin';
import { RANKS, currentRank, membersAtRankOrAbove } from '#modules/progression';
import { firstDrawsByPack, lastDrawBefore, membersWhoDrewBetween, membersWhoDrewFrom } from '#modules/draw';
import { packIdsInGenre, packTitles } from '#modules/gacha';
import {
  countMembersAmong,
  countMembersJoinedBefore,
  lastSignInBefore,
  membersSignedInBetween,
} from '#modules/identity';

const DAY_MS = 86_400_000;
/** The Japan-time month of an instant: the rank is the same for every instant of it. */
const jstMonth = (at: Date) => new Date(at.getTime() + 9 * 3_600_000).toISOString().slice(0, 7);

/**
 * all; rank ≥ N as of the send time (progression's currentRank: last JST month's paid purchases); genre
 * buyers (drew from the genre before the send time); inactive for N days (no sign-in and no draw in the N
 * days before the send time).
 * @example await listMails(db, memberId, 'broadcast', { limit: 20 }, { matcher: shopSegmentMatcher })
 */
export const shopSegmentMatcher: SegmentMatcher = async (db: Database, memberId, segments) => {
  const ranks = new Map<string, Promise<number>>();
  const rankAt = (at: Date) => {
    const key = jstMonth(at);
    if (!ranks.has(key))
      ranks.set(
        key,
        currentRank(db, memberId, at).then((r) => r.rank),
      );
    return ranks.get(key)!;
  };
  let genreFirsts: Promise<Map<string, Date>> | undefined;
  const firstDrawInGenre = async (genreId: string) => {
    genreFirsts ??= (async () => {
      const firsts = await firstDrawsByPack(db, memberId);
      const packs = await packTitles(db, [...firsts.keys()]);
      const byGenre = new Map<string, Date>();
      for (const [gachaId, at] of firsts) {
        const genre = packs.get(gachaId)?.genreId;
        if (!genre) continue;
        const known = byGenre.get(genre);
        if (!known || at < known) byGenre.set(genre, at);
      }
      return byGenre;
    })();
    return (await genreFirsts).get(genreId) ?? null;
  };
  const activeSince = async (sendAt: Date) => {
    const [signIn, draw] = await Promise.all([
      lastSignInBefore(db, memberId, sendAt),
      lastDrawBefore(db, memberId, sendAt),
    ]);
    return [signIn, draw].reduce<Date | null>((a, b) => (b && (!a || b > a) ? b : a), null);
  };
  const answers: boolean[] = [];
  // One at a time: the reads share the caller's connection (a transaction cannot run queries in parallel).
  for (const { segment, sendAt } of segments) {
    switch (segment.kind) {
      case 'all':
        answers.push(true);
        break;
      case 'rank':
        answers.push((await rankAt(sendAt)) >= segment.minRank);
        break;
      case 'genre_buyers': {
        const first = await firstDrawInGenre(segment.genreId);
        answers.push(first !== null && first < sendAt);
        break;
      }
      case 'inactive': {
        const last = await activeSince(sendAt);
        answers.push(!last || last.getTime() <= sendAt.getTime() - segment.days * DAY_MS);
        break;
      }
      default:
        answers.push(false);
    }
  }
  return answers;
};

/**
 * A mail's recipients counted as of `at` (decision 052): one for a personal mail; for a broadcast, the
 * members who had joined before `at`, have not left and match its segment at `at` by the rules the
 * matcher above applies to each member (rank by currentRank's rule, genre buyers by a completed draw from
 * any of the genre's packs, inactive by no sign-in and no draw in the days before). A few set reads, not
 * one per member. A scheduled mail is judged again at its send time, so its audience then may differ.
 * @example await countMailRecipients(tx, { audience: 'broadcast', segment: { kind: 'rank', minRank: 3 } }, new Date()) // 12
 */
export const countMailRecipients: MailRecipientCounter = async (db, to, at) => {
  if (to.audience === 'personal') return 1;
  const segment = to.segment;
  switch (segment.kind) {
    case 'all':
      return countMembersJoinedBefore(db, at);
    case 'rank':
      return segment.minRank <= RANKS[0].rank
        ? countMembersJoinedBefore(db, at)
        : countMembersAmong(db, await membersAtRankOrAbove(db, segment.minRank, at), at);
    case 'genre_buyers':
      return countMembersAmong(db, await membersWhoDrewFrom(db, await packIdsInGenre(db, segment.genreId), at), at);
    case 'inactive': {
      const since = new Date(at.getTime() - segment.days * DAY_MS);
      const active = new Set([
        ...(await membersSignedInBetween(db, since, at)),
        ...(await membersWhoDrewBetween(db, since, at)),
      ]);
      return (await countMembersJoinedBefore(db, at)) - (await countMembersAmong(db, [...active], at));
    }
    default:
      return 0;
  }
};

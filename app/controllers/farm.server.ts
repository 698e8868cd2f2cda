// /app/farm and /app/friends/add on the pages (decisions 044, 045): the loaders, and the actions that
// take an intention (a plot, a seed, a friend) with a key per tap. A replayed key answers the first
// answer; the time and the amounts are the server's.
import { data, redirect } from 'react-router';
import { z } from 'zod';
import type { ShopRequest } from '#server/context';
import { signInPathFor } from '#modules/kernel/navigation';
import { isStaffRole } from '#modules/identity';
import { readFarmRules, ripeCropCount } from '#modules/farm';
import { friendCodeOwner } from '#modules/friends';
import { normaliseInvitationCode } from '#modules/invitation';
import { withIdempotency } from '#modules/idempotency';
import { isRefusal, type Refusal } from '#modules/kernel';
import { describeRefusal, type RefusalCode } from '#modules/refusals';
import { maintenanceRefusal, refusalInit } from './maintenance.server';
import {
  farmOf,
  farmNow,
  farmRateLimit,
  friendsViewOf,
  friendViewsOf,
  runFarmIntent,
  runFriendIntent,
  type FarmIntentInput,
} from '#server/context';
import type {
  FarmActionAnswer,
  FarmLoaderData,
  FarmRefusalAnswer,
  FriendActionAnswer,
  FriendsLoaderData,
} from '~/lib/farm-contract';

export const FARM_PAGE_PATH = '/app/farm';
export const FRIENDS_PAGE_PATH = '/app/friends/add';

/**
 * The home page's nudge: the signed-in member's ripe crops (one small read); null for visitors and staff, so
 * the visitors' shared copy of the home page (decision 048) never carries it.
 * @example await ripeCropsNudgeOf(shop) // 2
 */
export async function ripeCropsNudgeOf(shop: ShopRequest): Promise<number | null> {
  if (!shop.member || isStaffRole(shop.member.role)) return null;
  return ripeCropCount(shop.services.db, shop.member.id, farmNow());
}

function memberOf(shop: ShopRequest, path: string) {
  // /app/* is members-only (the route rules redirect first); this guards a direct action post.
  if (!shop.member) throw redirect(signInPathFor(path));
  if (isStaffRole(shop.member.role))
    throw data(
      { ok: false, code: 'FARM_NOT_AVAILABLE', message: 'スタッフアカウントではファームを利用できません。' },
      403,
    );
  return shop.member;
}

const refusalAnswer = (refusal: Refusal): FarmRefusalAnswer & { status: number } => {
  const { status, code, message, details } = describeRefusal(refusal as Refusal<RefusalCode>);
  return { ok: false, code, message, details, status };
};

const invalid = (message: string) => data<FarmRefusalAnswer>({ ok: false, code: 'VALIDATION_FAILED', message }, 400);

const plotNo = z.coerce.number().int().min(1).max(64);
const friendshipId = z.coerce.number().int().min(1).max(Number.MAX_SAFE_INTEGER);
const key = z
  .string()
  .regex(/^[A-Za-z0-9_-]{8,64}$/)
  .optional();

const farmForm = z.discriminatedUnion('intent', [
  z.object({ intent: z.literal('plant'), plotNo, seedId: z.string().regex(/^[a-z][a-z0-9-]{1,31}$/), key }),
  z.object({ intent: z.enum(['water', 'harvest', 'clear']), plotNo, key }),
  z.object({ intent: z.literal('water-friend'), friendshipId, key }),
]);

const friendForm = z.discriminatedUnion('intent', [
  z.object({ intent: z.literal('request'), code: z.string().max(40), key }),
  z.object({ intent: z.enum(['accept', 'decline', 'cancel', 'remove']), friendshipId, key }),
  z.object({ intent: z.literal('water-friend'), friendshipId, key }),
]);

/**
 * Runs `work` once per (member, key) when a key is sent (a double tap or a retried post answers the
 * first answer); a refusal is stored and replayed like a success.
 */
async function once<T extends object>(
  shop: ShopRequest,
  memberId: string,
  input: { key?: string; operation: string; fingerprint: unknown },
  work: (db: ShopRequest['services']['db']) => Promise<T | Refusal>,
): Promise<{ status: number; body: T | (FarmRefusalAnswer & { status?: number }) }> {
  const run = async (db: ShopRequest['services']['db']) => {
    const answer = await work(db);
    if (!isRefusal(answer)) return { status: 200, body: answer as T | FarmRefusalAnswer };
    const { status, ...body } = refusalAnswer(answer);
    return { status, body: body as FarmRefusalAnswer };
  };
  if (!input.key) return run(shop.services.db);
  const outcome = await withIdempotency(
    shop.services.db,
    {
      memberId,
      key: `page:${input.key}`,
      operation: input.operation,
      requestHash: JSON.stringify(input.fingerprint),
    },
    run,
  );
  if (!outcome.ok) {
    const { status, ...body } = refusalAnswer(outcome);
    return { status, body };
  }
  return { status: outcome.status, body: outcome.body };
}

export async function farmPageLoader(shop: ShopRequest, _request: Request): Promise<FarmLoaderData> {
  const member = memberOf(shop, FARM_PAGE_PATH);
  const [farm, friends] = await Promise.all([
    farmOf(shop.services, member.id),
    friendViewsOf(shop.services, member.id),
  ]);
  return { farm, friends };
}

export async function farmPageAction(shop: ShopRequest, request: Request) {
  const member = memberOf(shop, FARM_PAGE_PATH);
  // Maintenance closes members' writes on the pages as in the API (decision 025).
  const closed = await maintenanceRefusal(shop);
  if (closed)
    return data<FarmActionAnswer>({ ok: false, code: closed.code, message: closed.message }, refusalInit(closed));
  const parsed = farmForm.safeParse(Object.fromEntries(await request.formData()));
  if (!parsed.success) return invalid('操作の内容が正しくありません。ページを読み込み直してください。');
  const tooFast = await farmRateLimit(shop.services, member.id);
  if (tooFast) {
    const { status, ...body } = refusalAnswer(tooFast);
    return data<FarmActionAnswer>(body, {
      status,
      headers: { 'Retry-After': String(tooFast.details.retryAfterSeconds) },
    });
  }
  const { key: tapKey, ...intent } = parsed.data;
  const answer = await once(
    shop,
    member.id,
    { key: tapKey, operation: `farm.${intent.intent}`, fingerprint: intent },
    async (db) => {
      const outcome = await runFarmIntent(shop.services, db, member.id, intent as FarmIntentInput);
      if (!outcome.ok) return outcome;
      const { ok: _ok, ...result } = outcome;
      return { ok: true as const, result };
    },
  );
  return data(answer.body as FarmActionAnswer, { status: answer.status });
}

export async function friendsPageLoader(shop: ShopRequest, request: Request): Promise<FriendsLoaderData> {
  const member = memberOf(shop, FRIENDS_PAGE_PATH);
  const typed = new URL(request.url).searchParams.get('code');
  const codeFromLink = normaliseInvitationCode(typed);
  const [friends, owner, rules] = await Promise.all([
    friendsViewOf(shop.services, member.id),
    codeFromLink ? friendCodeOwner(shop.services.db, member.id, codeFromLink) : Promise.resolve(null),
    readFarmRules(shop.services.db),
  ]);
  return {
    friends,
    codeFromLink,
    codeOwner: owner ? { nickname: owner.nickname } : null,
    farmPaused: rules.paused,
  };
}

const FRIEND_DONE: Record<string, (nickname: string, extra?: string) => string> = {
  requested: (name) => `${name}さんにフレンド申請を送りました。承認されるとフレンドになります。`,
  matched: (name) => `${name}さんとフレンドになりました（相手からも申請が届いていました）。`,
  accept: (name) => `${name}さんとフレンドになりました。`,
  decline: (name) => `${name}さんの申請をお断りしました。`,
  cancel: (name) => `${name}さんへの申請を取り消しました。`,
  remove: (name) => `${name}さんをフレンドから削除しました。`,
};

export async function friendsPageAction(shop: ShopRequest, request: Request) {
  const member = memberOf(shop, FRIENDS_PAGE_PATH);
  const closed = await maintenanceRefusal(shop);
  if (closed)
    return data<FriendActionAnswer>({ ok: false, code: closed.code, message: closed.message }, refusalInit(closed));
  const parsed = friendForm.safeParse(Object.fromEntries(await request.formData()));
  if (!parsed.success) return invalid('入力内容が正しくありません。フレンドコードは8文字の英数字です。');
  const tooFast = await farmRateLimit(shop.services, member.id);
  if (tooFast) {
    const { status, ...body } = refusalAnswer(tooFast);
    return data<FriendActionAnswer>(body, {
      status,
      headers: { 'Retry-After': String(tooFast.details.retryAfterSeconds) },
    });
  }
  const { key: tapKey, ...intent } = parsed.data;
  if (intent.intent === 'water-friend') {
    const answer = await once(
      shop,
      member.id,
      { key: tapKey, operation: 'farm.water-friend', fingerprint: intent },
      async (db) => {
        const outcome = await runFarmIntent(shop.services, db, member.id, intent);
        if (!outcome.ok) return outcome;
        return { ok: true as const, coins: outcome.coins, farm: outcome.farm };
      },
    );
    if (!answer.body.ok) return data<FriendActionAnswer>(answer.body, { status: answer.status });
    const { coins, farm } = answer.body as { coins: number; farm: FarmLoaderData['farm'] };
    return data<FriendActionAnswer>({
      ok: true,
      message:
        coins > 0
          ? `水やりしました。あなたとフレンドに${coins}コインずつ（上限まで）届きました。`
          : '水やりしました（今日のファーム報酬は上限に達しています）。',
      friends: await friendsViewOf(shop.services, member.id),
      farm,
    });
  }
  const answer = await once(
    shop,
    member.id,
    { key: tapKey, operation: `friends.${intent.intent}`, fingerprint: intent },
    async (db) => {
      const outcome = await runFriendIntent(shop.services, db, member.id, intent);
      if (!outcome.ok) return outcome;
      const done =
        'status' in outcome
          ? FRIEND_DONE[outcome.status === 'accepted' ? 'matched' : 'requested']!(outcome.nickname)
          : FRIEND_DONE[intent.intent]!(outcome.nickname);
      return { ok: true as const, message: done };
    },
  );
  if (!answer.body.ok) return data<FriendActionAnswer>(answer.body, { status: answer.status });
  return data<FriendActionAnswer>({
    ok: true,
    message: (answer.body as { message: string }).message,
    friends: await friendsViewOf(shop.services, member.id),
  });
}

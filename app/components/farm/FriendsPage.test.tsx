// /app/friends/add as its first response carries it: the member's code and link with the share
// buttons, the request form filled in from a friend's link (naming its owner), the requests received
// and sent with their buttons named per person, the friend list against its limit, and watering
// closed while the farm is paused.
import { describe, expect, it } from 'vitest';
import { renderToStaticMarkup } from 'react-dom/server';
import { createRoutesStub } from 'react-router';
import { FriendsPage } from './FriendsPage';
import { fixtureFriendsPage } from './farm-fixtures';
import type { FriendsLoaderData } from '~/lib/farm-contract';

function rendered(data: FriendsLoaderData): string {
  const Stub = createRoutesStub([{ path: '/app/friends/add', Component: () => <FriendsPage data={data} /> }]);
  return renderToStaticMarkup(<Stub initialEntries={['/app/friends/add']} />);
}

const buttonNamed = (html: string, name: string) => {
  const button = [...html.matchAll(/<button[^>]*>.*?<\/button>/g)]
    .map((m) => m[0])
    .find((b) => b.includes(`aria-label="${name}"`));
  if (!button) throw new Error(`no button named ${name}`);
  return { disabled: /<button[^>]* disabled=""/.test(button), html: button };
};

describe('FriendsPage', () => {
  it("shows the member's code and link with copy and LINE / X share", () => {
    const html = rendered(fixtureFriendsPage());
    expect(html).toMatch(/data-testid="friend-code">AB12CD34</);
    expect(html).toMatch(/<label for="friend-link"[^>]*>フレンド申請リンク<\/label>/);
    expect(html).toContain('value="https://shop.example/app/friends/add?code=AB12CD34"');
    expect(html).toContain('>コピー</button>');
    expect(html).toMatch(/href="https:\/\/line.me\/R\/share\?text=x"[^>]*>LINEで送る</);
    expect(html).toMatch(/href="https:\/\/x.com\/intent\/post\?text=x"[^>]*>Xでポスト</);
  });

  it('fills in the code from a link and names its owner before sending', () => {
    const plain = rendered(fixtureFriendsPage());
    expect(plain).toMatch(/<input id="friend-code"[^>]*value=""/);
    expect(plain).toContain('>フレンド申請する</button>');
    const linked = rendered(fixtureFriendsPage({ codeFromLink: 'ZX98YW76', codeOwner: { nickname: 'みどり' } }));
    expect(linked).toMatch(/<input id="friend-code"[^>]*value="ZX98YW76"/);
    expect(linked).toContain('みどりさんにフレンド申請します');
    expect(linked).toContain('>みどりさんに申請する</button>');
  });

  it('lists the requests with buttons named after each person', () => {
    const html = rendered(fixtureFriendsPage());
    expect(html).toContain('届いた申請（1件）');
    expect(buttonNamed(html, 'じろうさんの申請を承認').html).toContain('>承認</button>');
    expect(buttonNamed(html, 'じろうさんの申請を拒否').html).toContain('>拒否</button>');
    expect(html).toContain('送った申請（1件）');
    expect(buttonNamed(html, 'さぶろうさんへの申請を取り消し').html).toContain('>取り消し</button>');
    const none = rendered(
      fixtureFriendsPage({ friends: { ...fixtureFriendsPage().friends, incoming: [], outgoing: [] } }),
    );
    expect(none).not.toContain('届いた申請');
    expect(none).not.toContain('送った申請');
  });

  it('lists the friends against the limit, with 水やり and 削除 each', () => {
    const html = rendered(fixtureFriendsPage());
    expect(html).toContain('data-testid="friend-count">2 / 30人</span>');
    // A request the member sent takes a place too (decision 045).
    expect(html).toMatch(/承認待ちの申請1件も上限に数えます（あと(<!-- -->)?27(<!-- -->)?人）/);
    expect(buttonNamed(html, 'はなこさんの畑に水やり').disabled).toBe(false);
    expect(buttonNamed(html, 'たろうさん：今日は水やり済み').disabled).toBe(true);
    expect(buttonNamed(html, 'はなこさんをフレンドから削除').html).toContain('>削除</button>');
    // Removing asks first: nothing is posted from the list itself.
    expect(html).not.toContain('friend-remove-sheet');
    const empty = rendered(fixtureFriendsPage({ friends: { ...fixtureFriendsPage().friends, friends: [] } }));
    expect(empty).toContain('0 / 30人');
    expect(empty).toContain('まだフレンドがいません');
    expect(empty).toContain('friend-limit-note');
    const noRequests = rendered(fixtureFriendsPage({ friends: { ...fixtureFriendsPage().friends, outgoing: [] } }));
    expect(noRequests).not.toContain('friend-limit-note');
  });

  it('closes watering while the farm is paused, and says so', () => {
    const html = rendered(fixtureFriendsPage({ farmPaused: true }));
    expect(html).toContain(
      'ファームは現在メンテナンス中です。フレンドの追加はできますが、水やりは再開までお休みです。',
    );
    expect(buttonNamed(html, 'はなこさんの畑に水やり').disabled).toBe(true);
  });
});

// A bare page with the two allowed embeds, bundled by e2e/content-embed.test.ts to check click-to-load
// in a real browser without a content document in the shop.
import { createRoot } from 'react-dom/client';
import { Embed } from '~/components/content';

createRoot(document.getElementById('root')!).render(
  <main>
    <Embed embed={{ embed_url: 'https://youtu.be/dQw4w9WgXcQ', title: '開封動画' }} />
    <Embed embed={{ embed_url: 'https://x.com/jack/status/20' }} />
  </main>,
);

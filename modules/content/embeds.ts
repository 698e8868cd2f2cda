// The embed allow-list (issue 15, field kinds): only YouTube videos and X posts, recognised by their page
// URL. The page loads the player only after the member clicks, from a frame address built here from
// the id alone: the provider's oEmbed `html` and thumbnail are never used, so nothing a provider (or an
// editor) writes reaches the page, and the provider hears nothing from a visitor who does not click.

export type EmbedProvider = 'youtube' | 'x';

export interface AllowedEmbed {
  provider: EmbedProvider;
  /** The video id (11 characters) or the post id (digits). */
  id: string;
  /** The iframe's address: YouTube's no-cookie player or X's embed page with Do Not Track. */
  frameSrc: string;
  /** The canonical page on the provider, for a plain link and for storing. */
  pageUrl: string;
}

/** The frame origins the CSP's frame-src allows (server/security.ts); exactly these. */
export const EMBED_FRAME_ORIGINS = ['https://www.youtube-nocookie.com', 'https://platform.twitter.com'] as const;

export const EMBED_PROVIDER_LABELS: Record<EmbedProvider, string> = { youtube: 'YouTube', x: 'X' };

const YOUTUBE_ID = /^[A-Za-z0-9_-]{11}$/;
const X_POST_ID = /^\d{1,25}$/;
const X_USER = /^[A-Za-z0-9_]{1,15}$/;
const YOUTUBE_HOSTS = new Set(['youtube.com', 'www.youtube.com', 'm.youtube.com']);
const X_HOSTS = new Set(['x.com', 'www.x.com', 'twitter.com', 'www.twitter.com', 'mobile.twitter.com']);

function youtube(id: string | null | undefined): AllowedEmbed | null {
  if (!id || !YOUTUBE_ID.test(id)) return null;
  return {
    provider: 'youtube',
    id,
    frameSrc: `https://www.youtube-nocookie.com/embed/${id}`,
    pageUrl: `https://www.youtube.com/watch?v=${id}`,
  };
}

/**
 * The allowed embed an URL names, or null for any other address (other providers, other paths, a
 * malformed id, a non-https scheme other than http).
 * @example parseEmbed('https://youtu.be/dQw4w9WgXcQ')?.frameSrc // 'https://www.youtube-nocookie.com/embed/dQw4w9WgXcQ'
 * @example parseEmbed('https://x.com/jack/status/20')?.frameSrc // 'https://platform.twitter.com/embed/Tweet.html?id=20&dnt=true'
 */
export function parseEmbed(url: string | null | undefined): AllowedEmbed | null {
  if (typeof url !== 'string' || url.length > 2_000) return null;
  let parsed: URL;
  try {
    parsed = new URL(url.trim());
  } catch {
    return null;
  }
  if (parsed.protocol !== 'https:' && parsed.protocol !== 'http:') return null;
  if (parsed.username || parsed.password || parsed.port) return null;
  const host = parsed.hostname.toLowerCase();
  const segments = parsed.pathname.split('/').filter(Boolean);
  if (host === 'youtu.be') return segments.length === 1 ? youtube(segments[0]) : null;
  if (YOUTUBE_HOSTS.has(host)) {
    if (segments.length === 1 && segments[0] === 'watch') return youtube(parsed.searchParams.get('v'));
    if (segments.length === 2 && (segments[0] === 'shorts' || segments[0] === 'embed')) return youtube(segments[1]);
    return null;
  }
  if (X_HOSTS.has(host)) {
    const [user, status, id] = segments;
    if (segments.length !== 3 || status !== 'status' || !user || !X_USER.test(user) || !id || !X_POST_ID.test(id))
      return null;
    return {
      provider: 'x',
      id,
      frameSrc: `https://platform.twitter.com/embed/Tweet.html?id=${id}&dnt=true`,
      pageUrl: `https://x.com/${user}/status/${id}`,
    };
  }
  return null;
}

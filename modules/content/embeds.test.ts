// The embed allow-list: YouTube and X by their page URLs, built into frame addresses from the id alone.
import { describe, it, expect } from 'vitest';
import { parseEmbed } from './embeds';

const ID = 'dQw4w9WgXcQ';
const YOUTUBE_FRAME = `https://www.youtube-nocookie.com/embed/${ID}`;

describe('parseEmbed', () => {
  it.each([
    `https://www.youtube.com/watch?v=${ID}`,
    `https://youtube.com/watch?v=${ID}&t=42s&list=PL1`,
    `https://m.youtube.com/watch?v=${ID}`,
    `https://youtu.be/${ID}`,
    `https://youtu.be/${ID}?si=abc`,
    `https://www.youtube.com/shorts/${ID}`,
    `https://www.youtube.com/embed/${ID}`,
    `http://www.youtube.com/watch?v=${ID}`,
  ])('reads the YouTube URL %s', (url) => {
    expect(parseEmbed(url)).toEqual({
      provider: 'youtube',
      id: ID,
      frameSrc: YOUTUBE_FRAME,
      pageUrl: `https://www.youtube.com/watch?v=${ID}`,
    });
  });

  it.each([
    ['https://x.com/jack/status/20', 'jack', '20'],
    ['https://twitter.com/Jack_1/status/1234567890123456789?s=20', 'Jack_1', '1234567890123456789'],
    ['https://www.twitter.com/jack/status/20/', 'jack', '20'],
  ])('reads the X URL %s', (url, user, id) => {
    expect(parseEmbed(url)).toEqual({
      provider: 'x',
      id,
      frameSrc: `https://platform.twitter.com/embed/Tweet.html?id=${id}&dnt=true`,
      pageUrl: `https://x.com/${user}/status/${id}`,
    });
  });

  it.each([
    'javascript:alert(1)//youtu.be/dQw4w9WgXcQ',
    `data:text/html,https://youtu.be/${ID}`,
    `https://youtu.be.evil.example/${ID}`,
    `https://evil.example/watch?v=${ID}`,
    `https://www.youtube.com.evil.example/watch?v=${ID}`,
    `https://user:pass@www.youtube.com/watch?v=${ID}`,
    `https://www.youtube.com:8443/watch?v=${ID}`,
    'https://www.youtube.com/watch?v=short',
    `https://www.youtube.com/watch?v=${ID}x`,
    'https://www.youtube.com/watch?v=dQw4w9WgXc"',
    `https://www.youtube.com/playlist?list=${ID}`,
    `https://www.youtube.com/channel/${ID}`,
    `https://youtu.be/${ID}/extra`,
    'https://vimeo.com/76979871',
    'https://x.com/jack',
    'https://x.com/jack/status/abc',
    'https://x.com/jack/likes/20',
    'https://x.com/bad-user!/status/20',
    'https://x.com.evil.example/jack/status/20',
    'https://platform.twitter.com/embed/Tweet.html?id=20',
    '',
    'not a url',
  ])('refuses %j', (url) => {
    expect(parseEmbed(url)).toBeNull();
  });

  it('refuses what is not a string', () => {
    expect(parseEmbed(null)).toBeNull();
    expect(parseEmbed(undefined)).toBeNull();
    expect(parseEmbed(`https://youtu.be/${ID}?${'a'.repeat(3000)}`)).toBeNull();
  });
});

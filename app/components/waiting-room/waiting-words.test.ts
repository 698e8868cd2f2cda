// The waiting room page's words for times: the estimate, the window's length and the time left in it.
import { describe, expect, it } from 'vitest';
import { clockWords, durationWords, waitWords } from './WaitingRoomPanels';

describe('the waiting room’s words for times', () => {
  it('says an estimate in seconds, minutes, or hours and minutes', () => {
    expect(waitWords(40)).toBe('約40秒');
    expect(waitWords(370)).toBe('約6分');
    expect(waitWords(3_900)).toBe('約1時間5分');
    expect(waitWords(7_200)).toBe('約2時間');
  });

  it('says a window’s length and counts its time down in minutes and seconds', () => {
    expect(durationWords(180)).toBe('3分');
    expect(durationWords(90)).toBe('1分30秒');
    expect(durationWords(45)).toBe('45秒');
    expect(clockWords(125.7)).toBe('2:05');
    expect(clockWords(-3)).toBe('0:00');
  });
});

// The server's clock as the page keeps it between answers: the offset from the device's clock is taken
// whenever a new view arrives (its `now`), and the page ticks once per second from there. A device whose
// clock is hours off still counts down the server's time. The first render uses the view's own `now`,
// so the server's markup and the browser's first render agree.
import { useEffect, useState } from 'react';

/** Milliseconds on the server's clock, ticking once per second. @example const now = useServerClock(farm.now) */
export function useServerClock(serverNow: string): number {
  const [now, setNow] = useState(() => Date.parse(serverNow));
  useEffect(() => {
    const serverOffset = Date.parse(serverNow) - Date.now();
    const tick = () => setNow(Date.now() + serverOffset);
    tick();
    const timer = setInterval(tick, 1000);
    return () => clearInterval(timer);
  }, [serverNow]);
  return now;
}

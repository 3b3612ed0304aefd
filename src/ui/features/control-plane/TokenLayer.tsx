// The tokens travelling now, drawn in the graph's own coordinates (inside React Flow's viewport) and moved by
// the Web Animations API along their route (transform and opacity only, on the compositor), so a frame
// re-renders nothing. Each is a button naming its event.
import { memo, useLayoutEffect, useRef } from 'react';
import type { LiveToken } from './token-store';
import { tokenStore, useTokens } from './token-store';
import { prefersReducedMotion, tokenKeyframes } from '../../lib/token-motion';


const TokenButton = memo(function TokenButton({ token: t }: { token: LiveToken }) {
  const ref = useRef<HTMLButtonElement>(null);
  const parked = t.parkMs > 0;
  useLayoutEffect(() => {
    const el = ref.current;
    if (!el || typeof el.animate !== 'function') return;
    const duration = t.durationMs + t.holdMs;
    const animation = el.animate(tokenKeyframes(t.points, parked, prefersReducedMotion(), t.holdMs / duration), {
      duration,
      delay: t.delayMs,
      easing: 'ease-in-out',
      fill: 'both',
    });
    return () => animation.cancel();
  }, [t, parked]);
  return (
    <button
      ref={ref}
      type="button"
      className="cp-token nopan nodrag nowheel"
      data-tone={t.tone}
      data-parked={parked || undefined}
      aria-label={t.label}
      title={t.label}
      // A moving target is no keyboard stop (the recent-requests list is); a refusal waits at its stage and is.
      tabIndex={parked ? 0 : -1}
      onClick={() => tokenStore.show(t.request ? { kind: 'request', request: t.request } : { kind: 'watch', delivery: t.delivery! })}
    />
  );
});

export function TokenLayer() {
  const tokens = useTokens((s) => s.tokens);
  return (
    <div className="cp-tokens">
      {tokens.map((t) => (
        <TokenButton key={t.id} token={t} />
      ))}
    </div>
  );
}

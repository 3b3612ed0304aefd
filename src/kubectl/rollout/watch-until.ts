// watchtools.UntilWithSync over the kubectl client, as `rollout status` uses it: watch one object by name (the
// current state first, as an informer's initial list delivers it, then every change), hand each ADDED/MODIFIED
// state to `condition` until it says done, and end on a DELETED event, an error, --timeout or Ctrl+C.
//
//   const outcome = await untilWithSync(env, target, (obj) => { print(status(obj)); return done; }, { timeoutMs });
//   // 'done' | 'cancelled'; throws `timed out waiting for the condition` or the condition's error
import type { KubeObject, WatchEvent } from '../../shared/api/types';
import type { KubectlEnv } from '../cli/command';
import type { WatchHandle } from '../../control-plane/client/client';
import type { Target } from './target';

export type UntilOutcome = 'done' | 'cancelled';

export function untilWithSync(env: KubectlEnv, target: Target, condition: (obj: KubeObject) => boolean, options: { timeoutMs?: number } = {}): Promise<UntilOutcome> {
  const { rt } = target;
  const rc = env.client.resource({ group: rt.group, version: rt.version, resource: rt.resource });
  return new Promise<UntilOutcome>((resolve, reject) => {
    let settled = false;
    let handle: WatchHandle | undefined;
    const timer = options.timeoutMs && options.timeoutMs > 0 ? env.clock.setTimer(options.timeoutMs, () => finish(new Error('timed out waiting for the condition')), 'kubectl rollout status timeout') : undefined;

    const finish = (result: UntilOutcome | Error): void => {
      if (settled) return;
      settled = true;
      handle?.stop();
      env.clock.clearTimer(timer);
      if (result instanceof Error) reject(result);
      else resolve(result);
    };

    const onEvents = (events: WatchEvent[]): void => {
      for (const event of events) {
        if (settled) return;
        switch (event.type) {
          case 'ADDED':
          case 'MODIFIED': {
            let done: boolean;
            try {
              done = condition(event.object);
            } catch (err) {
              finish(err instanceof Error ? err : new Error(String(err)));
              return;
            }
            if (done) finish('done');
            break;
          }
          case 'DELETED':
            // Abort rather than silently watch a re-created object.
            finish(new Error('object has been deleted'));
            return;
          case 'ERROR':
            // The watch expired (410 Gone): the informer relists and watches again.
            handle?.stop();
            start();
            return;
          default:
            break;
        }
      }
    };

    const start = (): void => {
      try {
        handle = rc.watch({ namespace: target.namespace, fieldSelector: `metadata.name=${target.name}` }, onEvents);
      } catch (err) {
        finish(err instanceof Error ? err : new Error(String(err)));
      }
    };

    if (env.signal.cancelled) {
      finish('cancelled');
      return;
    }
    env.signal.onCancel(() => finish('cancelled'));
    start();
  });
}

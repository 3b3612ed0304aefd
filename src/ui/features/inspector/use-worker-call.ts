// Asks the worker something on demand (sim/decisions, trace/why) and keeps the latest answer or error; asks
// again when `version` changes or on refresh(). Answers to superseded questions are dropped.
import { useCallback, useEffect, useRef, useState } from 'react';
import type { MethodName, MethodParams, MethodResult } from '../../../shared/protocol/methods';
import { useClient } from '../../worker-client/context';
import { statusOf } from './edit';

export interface WorkerCallState<T> {
  result?: T;
  error?: string;
  loading: boolean;
  refresh(): void;
}

export function useWorkerCall<M extends MethodName>(method: M, params: MethodParams<M>, version: string): WorkerCallState<MethodResult<M>> {
  const client = useClient();
  const [state, setState] = useState<{ result?: MethodResult<M>; error?: string; loading: boolean }>({ loading: true });
  const [tick, setTick] = useState(0);
  const latest = useRef(0);
  // params are read through a ref: the call is keyed by `version`, not by the params object's identity.
  const paramsRef = useRef(params);
  paramsRef.current = params;

  useEffect(() => {
    const id = ++latest.current;
    setState((s) => ({ ...s, loading: true }));
    const call = client.call as (m: M, p: MethodParams<M>) => Promise<MethodResult<M>>;
    call(method, paramsRef.current).then(
      (result) => {
        if (id === latest.current) setState({ result, loading: false });
      },
      (err: unknown) => {
        if (id === latest.current) setState({ error: statusOf(err).message, loading: false });
      },
    );
  }, [client, method, version, tick]);

  const refresh = useCallback(() => setTick((t) => t + 1), []);
  return { ...state, refresh };
}

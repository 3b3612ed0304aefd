// The cluster worker, started by the first module the page evaluates (main.tsx imports this before React): the
// worker's script fetch, compile and cluster boot are the longest road to a usable page, so they begin while
// React, the views and the rest of the entry chunk are still being evaluated on the main thread.
import { appStore } from './state/store';
import { connect } from './worker-client/connection';

export const reportError = (message: string) => appStore.getState().showError({ message, reason: '', code: 0 });

export const { client } = connect(reportError);

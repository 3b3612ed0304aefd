// Resolve hook for @ngrok/webernetes: its dist/ imports name neither the file extension nor index.js
// ("./cluster/cri/runtime"), which Node's ESM resolver refuses. Retries such relative imports with ".js" and
// "/index.js", only for importers inside that package.
export async function resolve(specifier, context, nextResolve) {
  try {
    return await nextResolve(specifier, context);
  } catch (err) {
    const fromPeer = context.parentURL?.includes('/@ngrok/webernetes/') ?? false;
    if (!fromPeer || !specifier.startsWith('.')) throw err;
    for (const suffix of ['.js', '/index.js']) {
      try {
        return await nextResolve(specifier + suffix, context);
      } catch {
        // try the next form
      }
    }
    throw err;
  }
}

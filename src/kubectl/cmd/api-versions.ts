// kubectl api-versions (k8s.io/kubectl v0.32.4 pkg/cmd/apiresources/apiversions.go): every group/version the
// server's discovery serves (not only the preferred ones), sorted.
import { discoveryDocuments } from '../../control-plane/apiserver/handlers/discovery';
import type { CommandSpec } from '../cli/command';

export const apiVersionsCommand: CommandSpec = {
  path: ['api-versions'],
  use: 'api-versions',
  short: 'Print the supported API versions on the server, in the form of "group/version"',
  long: 'Print the supported API versions on the server, in the form of "group/version".',
  example: `  # Print the supported API versions
  kubectl api-versions`,
  flags: [],
  run(env, args, _flags, io) {
    if (args.length !== 0) {
      io.stderr(`error: unexpected arguments: [${args.join(' ')}]`);
      io.stderr("See 'kubectl api-versions -h' for help and examples");
      return 1;
    }
    const docs = discoveryDocuments(env.registry);
    const versions = [...docs.coreVersions.versions, ...docs.groups.groups.flatMap((g) => g.versions.map((v) => v.groupVersion))];
    for (const v of [...new Set(versions)].sort()) io.stdout(v);
    return 0;
  },
};

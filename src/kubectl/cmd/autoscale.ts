// kubectl autoscale (-f FILE | TYPE NAME | TYPE/NAME) --max=N [--min] [--cpu-percent] (k8s.io/kubectl/pkg/cmd/
// autoscale, v1.32): a HorizontalPodAutoscaler for each object with a scale subresource, POSTed through the
// autoscaling/v1 API as kubectl 1.32 does (the server stores it as autoscaling/v2). Prints
// `horizontalpodautoscaler.autoscaling/nginx autoscaled` (`created (dry run)` for a client dry run).
import type { KubeObject } from '../../shared/api/types';
import type { CommandIO, CommandSpec, FlagValues, KubectlEnv } from '../cli/command';
import { buildResources, CommandError } from '../resource-builder';
import { boolFlag, checkErr, DryRun, dryRunStrategy, filenames, guarded, intFlag, ObjectPrinter, requireFlags, stringFlag, visitErrors, withTypedLastApplied } from './create-common';

export const autoscaleCommand: CommandSpec = {
  path: ["autoscale"],
  use: "autoscale (-f FILENAME | TYPE NAME | TYPE/NAME) [--min=MINPODS] --max=MAXPODS [--cpu-percent=CPU]",
  short: "Auto-scale a deployment, replica set, stateful set, or replication controller",
  long: "Creates an autoscaler that automatically chooses and sets the number of pods that run in a Kubernetes cluster.\n\n Looks up a deployment, replica set, stateful set, or replication controller by name and creates an autoscaler that uses the given resource as a reference. An autoscaler can automatically increase or decrease number of pods deployed within the system as needed.",
  example: "  # Auto scale a deployment \"foo\", with the number of pods between 2 and 10, no target CPU utilization specified so a default autoscaling policy will be used\n  kubectl autoscale deployment foo --min=2 --max=10\n  \n  # Auto scale a replication controller \"foo\", with the number of pods between 1 and 5, target CPU utilization at 80%\n  kubectl autoscale rc foo --max=5 --cpu-percent=80",
  flags: [
    { name: "allow-missing-template-keys", type: 'bool', default: true, usage: "If true, ignore any errors in templates when a field or map key is missing in the template. Only applies to golang and jsonpath output formats." },
    { name: "cpu-percent", type: 'int', default: -1, usage: "The target average CPU utilization (represented as a percent of requested CPU) over all the pods. If it's not specified or negative, a default autoscaling policy will be used." },
    { name: "dry-run", type: 'string', default: "none", noOptDefault: 'unchanged', usage: "Must be \"none\", \"server\", or \"client\". If client strategy, only print the object that would be sent, without sending it. If server strategy, submit server-side request without persisting the resource." },
    { name: "field-manager", type: 'string', default: "kubectl-autoscale", usage: "Name of the manager used to track field ownership." },
    { name: "filename", shorthand: "f", type: 'stringSlice', default: [], usage: "Filename, directory, or URL to files identifying the resource to autoscale." },
    { name: "max", type: 'int', default: -1, usage: "The upper limit for the number of pods that can be set by the autoscaler. Required." },
    { name: "min", type: 'int', default: -1, usage: "The lower limit for the number of pods that can be set by the autoscaler. If it's not specified or negative, the server will apply a default value." },
    { name: "name", type: 'string', default: "", usage: "The name for the newly created object. If not specified, the name of the input resource will be used." },
    { name: "output", shorthand: "o", type: 'string', default: "", usage: "Output format. One of: (json, yaml, name, go-template, go-template-file, template, templatefile, jsonpath, jsonpath-as-json, jsonpath-file)." },
    { name: "recursive", shorthand: "R", type: 'bool', default: false, usage: "Process the directory used in -f, --filename recursively. Useful when you want to manage related manifests organized within the same directory." },
    { name: "save-config", type: 'bool', default: false, usage: "If true, the configuration of current object will be saved in its annotation. Otherwise, the annotation will be unchanged. This flag is useful when you want to perform kubectl apply on this object in the future." },
    { name: "show-managed-fields", type: 'bool', default: false, usage: "If true, keep the managedFields when printing objects in JSON or YAML format." },
  ],
  run: (env, args, flags, io) => guarded(io, 'autoscale', () => runAutoscale(env, args, flags, io)),
};

function runAutoscale(env: KubectlEnv, args: string[], flags: FlagValues, io: CommandIO): number {
  requireFlags(flags, ['max']);
  const dryRun = dryRunStrategy(flags);
  const output = stringFlag(flags, 'output');
  const showManagedFields = boolFlag(flags, 'show-managed-fields');
  ObjectPrinter.create(output, 'autoscaled');
  const max = intFlag(flags, 'max', -1);
  const min = intFlag(flags, 'min', -1);
  const cpuPercent = intFlag(flags, 'cpu-percent', -1);
  if (max < 1) throw new CommandError(`--max=MAXPODS is required and must be at least 1, max: ${max}`);
  if (max < min) throw new CommandError(`--max=MAXPODS must be larger or equal to --min=MINPODS, max: ${max}, min: ${min}`);

  const built = buildResources(env, { args, filenames: filenames(flags), requireObject: true });
  if (built.error) throw built.error;
  const errors: unknown[] = [...built.errors];
  let count = 0;
  for (const info of built.infos) {
    try {
      if (!info.rt.subresources.scale) {
        const gv = info.rt.group ? `${info.rt.group}/${info.rt.version}` : `/${info.rt.version}`;
        throw new CommandError(`cannot autoscale a ${info.rt.kind}: could not find scale subresource for ${gv}, Resource=${info.rt.resource} in discovery information`);
      }
      let hpa: KubeObject = {
        kind: 'HorizontalPodAutoscaler',
        apiVersion: 'autoscaling/v1',
        metadata: { name: stringFlag(flags, 'name') || info.name, creationTimestamp: null as unknown as string },
        spec: {
          scaleTargetRef: { kind: info.rt.kind, name: info.name, apiVersion: info.rt.group ? `${info.rt.group}/${info.rt.version}` : info.rt.version },
          ...(min > 0 ? { minReplicas: min } : {}),
          maxReplicas: max,
          ...(cpuPercent >= 0 ? { targetCPUUtilizationPercentage: cpuPercent } : {}),
        },
        status: { currentReplicas: 0, desiredReplicas: 0 },
      };
      if (dryRun === DryRun.Client) {
        count++;
        ObjectPrinter.create(output, 'created', { dryRun, showManagedFields }).print(io, hpa, { typed: true });
        continue;
      }
      if (boolFlag(flags, 'save-config')) hpa = withTypedLastApplied(hpa);
      const res = env.client.handle<KubeObject>({
        verb: 'create',
        group: 'autoscaling',
        version: 'v1',
        resource: 'horizontalpodautoscalers',
        namespace: env.namespace,
        body: hpa,
        options: { fieldManager: stringFlag(flags, 'field-manager'), ...(dryRun === DryRun.Server ? { dryRun: true } : {}) },
      });
      for (const w of res.warnings ?? []) io.stderr(`Warning: ${w}`);
      count++;
      ObjectPrinter.create(output, 'autoscaled', { dryRun, showManagedFields }).print(io, res.body);
    } catch (err) {
      errors.push(err);
    }
  }
  if (errors.length > 0) return checkErr(io, visitErrors(errors));
  if (count === 0) throw new CommandError('no objects passed to autoscale');
  return 0;
}

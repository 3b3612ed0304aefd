// kubectl explain: the plaintext template over the OpenAPI v3 document built from the generated schemas. Every
// expected text was checked against the real kubectl v1.32 explaining the same document served over HTTP.
import { beforeAll, describe, expect, it } from 'vitest';
import type { Cluster } from '../../control-plane/cluster';
import { kubectl } from '../cli/testing';
import { commandTestCluster } from '../testing';

let cluster: Cluster;

beforeAll(async () => {
  cluster = await commandTestCluster();
}, 60_000);

async function run(line: string): Promise<{ stdout: string; stderr: string; exitCode: number }> {
  const { stdout, stderr, exitCode } = await kubectl(cluster, `kubectl ${line}`);
  return { stdout, stderr, exitCode };
}

const text = (...lines: string[]): string => `${lines.join('\n')}\n`;

describe('kubectl explain (checked against kubectl v1.32)', () => {
  it('kubectl explain pod.spec.containers', async () => {
    expect(await run('explain pod.spec.containers')).toEqual({
      stdout: text(
        'KIND:       Pod',
        'VERSION:    v1',
        '',
        'FIELD: containers <[]Container>',
        '',
        '',
        'DESCRIPTION:',
        '    List of containers belonging to the pod. Containers cannot currently be',
        '    added or removed. There must be at least one container in a Pod. Cannot be',
        '    updated.',
        '    A single application container that you want to run within a pod.',
        '    ',
        'FIELDS:',
        '  args\t<[]string>',
        '    Arguments to the entrypoint. The container image\'s CMD is used if this is',
        '    not provided. Variable references $(VAR_NAME) are expanded using the',
        '    container\'s environment. If a variable cannot be resolved, the reference in',
        '    the input string will be unchanged. Double $$ are reduced to a single $,',
        '    which allows for escaping the $(VAR_NAME) syntax: i.e. \"$$(VAR_NAME)\" will',
        '    produce the string literal \"$(VAR_NAME)\". Escaped references will never be',
        '    expanded, regardless of whether the variable exists or not. Cannot be',
        '    updated. More info:',
        '    https://kubernetes.io/docs/tasks/inject-data-application/define-command-argument-container/#running-a-command-in-a-shell',
        '',
        '  command\t<[]string>',
        '    Entrypoint array. Not executed within a shell. The container image\'s',
        '    ENTRYPOINT is used if this is not provided. Variable references $(VAR_NAME)',
        '    are expanded using the container\'s environment. If a variable cannot be',
        '    resolved, the reference in the input string will be unchanged. Double $$ are',
        '    reduced to a single $, which allows for escaping the $(VAR_NAME) syntax:',
        '    i.e. \"$$(VAR_NAME)\" will produce the string literal \"$(VAR_NAME)\". Escaped',
        '    references will never be expanded, regardless of whether the variable exists',
        '    or not. Cannot be updated. More info:',
        '    https://kubernetes.io/docs/tasks/inject-data-application/define-command-argument-container/#running-a-command-in-a-shell',
        '',
        '  env\t<[]EnvVar>',
        '    List of environment variables to set in the container. Cannot be updated.',
        '',
        '  envFrom\t<[]EnvFromSource>',
        '    List of sources to populate environment variables in the container. The keys',
        '    defined within a source must be a C_IDENTIFIER. All invalid keys will be',
        '    reported as an event when the container is starting. When a key exists in',
        '    multiple sources, the value associated with the last source will take',
        '    precedence. Values defined by an Env with a duplicate key will take',
        '    precedence. Cannot be updated.',
        '',
        '  image\t<string>',
        '    Container image name. More info:',
        '    https://kubernetes.io/docs/concepts/containers/images This field is optional',
        '    to allow higher level config management to default or override container',
        '    images in workload controllers like Deployments and StatefulSets.',
        '',
        '  imagePullPolicy\t<string>',
        '    Image pull policy. One of Always, Never, IfNotPresent. Defaults to Always if',
        '    :latest tag is specified, or IfNotPresent otherwise. Cannot be updated. More',
        '    info: https://kubernetes.io/docs/concepts/containers/images#updating-images',
        '',
        '  lifecycle\t<Lifecycle>',
        '    Actions that the management system should take in response to container',
        '    lifecycle events. Cannot be updated.',
        '',
        '  livenessProbe\t<Probe>',
        '    Periodic probe of container liveness. Container will be restarted if the',
        '    probe fails. Cannot be updated. More info:',
        '    https://kubernetes.io/docs/concepts/workloads/pods/pod-lifecycle#container-probes',
        '',
        '  name\t<string> -required-',
        '    Name of the container specified as a DNS_LABEL. Each container in a pod must',
        '    have a unique name (DNS_LABEL). Cannot be updated.',
        '',
        '  ports\t<[]ContainerPort>',
        '    List of ports to expose from the container. Not specifying a port here DOES',
        '    NOT prevent that port from being exposed. Any port which is listening on the',
        '    default \"0.0.0.0\" address inside a container will be accessible from the',
        '    network. Modifying this array with strategic merge patch may corrupt the',
        '    data. For more information See',
        '    https://github.com/kubernetes/kubernetes/issues/108255. Cannot be updated.',
        '',
        '  readinessProbe\t<Probe>',
        '    Periodic probe of container service readiness. Container will be removed',
        '    from service endpoints if the probe fails. Cannot be updated. More info:',
        '    https://kubernetes.io/docs/concepts/workloads/pods/pod-lifecycle#container-probes',
        '',
        '  resizePolicy\t<[]ContainerResizePolicy>',
        '    Resources resize policy for the container.',
        '',
        '  resources\t<ResourceRequirements>',
        '    Compute Resources required by this container. Cannot be updated. More info:',
        '    https://kubernetes.io/docs/concepts/configuration/manage-resources-containers/',
        '',
        '  restartPolicy\t<string>',
        '    RestartPolicy defines the restart behavior of individual containers in a',
        '    pod. This field may only be set for init containers, and the only allowed',
        '    value is \"Always\". For non-init containers or when this field is not',
        '    specified, the restart behavior is defined by the Pod\'s restart policy and',
        '    the container type. Setting the RestartPolicy as \"Always\" for the init',
        '    container will have the following effect: this init container will be',
        '    continually restarted on exit until all regular containers have terminated.',
        '    Once all regular containers have completed, all init containers with',
        '    restartPolicy \"Always\" will be shut down. This lifecycle differs from normal',
        '    init containers and is often referred to as a \"sidecar\" container. Although',
        '    this init container still starts in the init container sequence, it does not',
        '    wait for the container to complete before proceeding to the next init',
        '    container. Instead, the next init container starts immediately after this',
        '    init container is started, or after any startupProbe has successfully',
        '    completed.',
        '',
        '  securityContext\t<SecurityContext>',
        '    SecurityContext defines the security options the container should be run',
        '    with. If set, the fields of SecurityContext override the equivalent fields',
        '    of PodSecurityContext. More info:',
        '    https://kubernetes.io/docs/tasks/configure-pod-container/security-context/',
        '',
        '  startupProbe\t<Probe>',
        '    StartupProbe indicates that the Pod has successfully initialized. If',
        '    specified, no other probes are executed until this completes successfully.',
        '    If this probe fails, the Pod will be restarted, just as if the livenessProbe',
        '    failed. This can be used to provide different probe parameters at the',
        '    beginning of a Pod\'s lifecycle, when it might take a long time to load data',
        '    or warm a cache, than during steady-state operation. This cannot be updated.',
        '    More info:',
        '    https://kubernetes.io/docs/concepts/workloads/pods/pod-lifecycle#container-probes',
        '',
        '  stdin\t<boolean>',
        '    Whether this container should allocate a buffer for stdin in the container',
        '    runtime. If this is not set, reads from stdin in the container will always',
        '    result in EOF. Default is false.',
        '',
        '  stdinOnce\t<boolean>',
        '    Whether the container runtime should close the stdin channel after it has',
        '    been opened by a single attach. When stdin is true the stdin stream will',
        '    remain open across multiple attach sessions. If stdinOnce is set to true,',
        '    stdin is opened on container start, is empty until the first client attaches',
        '    to stdin, and then remains open and accepts data until the client',
        '    disconnects, at which time stdin is closed and remains closed until the',
        '    container is restarted. If this flag is false, a container processes that',
        '    reads from stdin will never receive an EOF. Default is false',
        '',
        '  terminationMessagePath\t<string>',
        '    Optional: Path at which the file to which the container\'s termination',
        '    message will be written is mounted into the container\'s filesystem. Message',
        '    written is intended to be brief final status, such as an assertion failure',
        '    message. Will be truncated by the node if greater than 4096 bytes. The total',
        '    message length across all containers will be limited to 12kb. Defaults to',
        '    /dev/termination-log. Cannot be updated.',
        '',
        '  terminationMessagePolicy\t<string>',
        '    Indicate how the termination message should be populated. File will use the',
        '    contents of terminationMessagePath to populate the container status message',
        '    on both success and failure. FallbackToLogsOnError will use the last chunk',
        '    of container log output if the termination message file is empty and the',
        '    container exited with an error. The log output is limited to 2048 bytes or',
        '    80 lines, whichever is smaller. Defaults to File. Cannot be updated.',
        '',
        '  tty\t<boolean>',
        '    Whether this container should allocate a TTY for itself, also requires',
        '    \'stdin\' to be true. Default is false.',
        '',
        '  volumeDevices\t<[]VolumeDevice>',
        '    volumeDevices is the list of block devices to be used by the container.',
        '',
        '  volumeMounts\t<[]VolumeMount>',
        '    Pod volumes to mount into the container\'s filesystem. Cannot be updated.',
        '',
        '  workingDir\t<string>',
        '    Container\'s working directory. If not specified, the container runtime\'s',
        '    default will be used, which might be configured in the container image.',
        '    Cannot be updated.',
        '',
        '',
      ),
      stderr: '',
      exitCode: 0,
    });
  });

  it('kubectl explain deploy.spec.strategy', async () => {
    expect(await run('explain deploy.spec.strategy')).toEqual({
      stdout: text(
        'GROUP:      apps',
        'KIND:       Deployment',
        'VERSION:    v1',
        '',
        'FIELD: strategy <DeploymentStrategy>',
        '',
        '',
        'DESCRIPTION:',
        '    The deployment strategy to use to replace existing pods with new ones.',
        '    DeploymentStrategy describes how to replace existing pods with new ones.',
        '    ',
        'FIELDS:',
        '  rollingUpdate\t<RollingUpdateDeployment>',
        '    Rolling update config params. Present only if DeploymentStrategyType =',
        '    RollingUpdate.',
        '',
        '  type\t<string>',
        '    Type of deployment. Can be \"Recreate\" or \"RollingUpdate\". Default is',
        '    RollingUpdate.',
        '',
        '',
      ),
      stderr: '',
      exitCode: 0,
    });
  });

  it('kubectl explain svc.spec.ports --recursive', async () => {
    expect(await run('explain svc.spec.ports --recursive')).toEqual({
      stdout: text(
        'KIND:       Service',
        'VERSION:    v1',
        '',
        'FIELD: ports <[]ServicePort>',
        '',
        '',
        'DESCRIPTION:',
        '    The list of ports that are exposed by this service. More info:',
        '    https://kubernetes.io/docs/concepts/services-networking/service/#virtual-ips-and-service-proxies',
        '    ServicePort contains information on service\'s port.',
        '    ',
        'FIELDS:',
        '  appProtocol\t<string>',
        '  name\t<string>',
        '  nodePort\t<integer>',
        '  port\t<integer> -required-',
        '  protocol\t<string>',
        '  targetPort\t<IntOrString>',
        '',
      ),
      stderr: '',
      exitCode: 0,
    });
  });

  it('kubectl explain cm.data', async () => {
    expect(await run('explain cm.data')).toEqual({
      stdout: text(
        'KIND:       ConfigMap',
        'VERSION:    v1',
        '',
        'FIELD: data <map[string]string>',
        '',
        '',
        'DESCRIPTION:',
        '    Data contains the configuration data. Each key must consist of alphanumeric',
        '    characters, \'-\', \'_\' or \'.\'. Values with non-UTF-8 byte sequences must use',
        '    the BinaryData field. The keys stored in Data must not overlap with the keys',
        '    in the BinaryData field, this is enforced during validation process.',
        '    ',
        '',
      ),
      stderr: '',
      exitCode: 0,
    });
  });

  it('kubectl explain pods.spec.foo', async () => {
    expect(await run('explain pods.spec.foo')).toEqual({
      stdout: text(
        'KIND:       Pod',
        'VERSION:    v1',
        '',
      ),
      stderr: text('error: field \"foo\" does not exist'),
      exitCode: 1,
    });
  });

  it('kubectl explain foo', async () => {
    expect(await run('explain foo')).toEqual({
      stdout: '',
      stderr: text('the server doesn\'t have a resource type \"foo\"'),
      exitCode: 1,
    });
  });

  it('kubectl explain pods --api-version=apps/v1', async () => {
    expect(await run('explain pods --api-version=apps/v1')).toEqual({
      stdout: '',
      stderr: text('error: GVR (apps/v1, Resource=pods) not found in OpenAPI schema'),
      exitCode: 1,
    });
  });

  it('kubectl explain pods --api-version=v2', async () => {
    expect(await run('explain pods --api-version=v2')).toEqual({
      stdout: '',
      stderr: text('error: couldn\'t find resource for \"/v2, Resource=pods\"'),
      exitCode: 1,
    });
  });

  it('kubectl explain \'pods.spec[0]\'', async () => {
    expect(await run('explain \'pods.spec[0]\'')).toEqual({
      stdout: '',
      stderr: text('error: invalid jsonpath syntax, first node must be field node'),
      exitCode: 1,
    });
  });

  it('kubectl explain', async () => {
    expect(await run('explain')).toEqual({
      stdout: '',
      stderr: text('error: You must specify the type of resource to explain. Use \"kubectl api-resources\" for a complete list of supported resources.'),
      exitCode: 1,
    });
  });

  it('kubectl explain pods svc', async () => {
    expect(await run('explain pods svc')).toEqual({
      stdout: '',
      stderr: text('error: We accept only this format: explain RESOURCE'),
      exitCode: 1,
    });
  });

});

describe('kubectl explain for a custom resource', () => {
  it('reads the CRD openAPIV3Schema, with apiVersion, kind and metadata added', async () => {
    const c = await commandTestCluster();
    c.client.resource({ group: 'apiextensions.k8s.io', version: 'v1', resource: 'customresourcedefinitions' }).create({
      apiVersion: 'apiextensions.k8s.io/v1',
      kind: 'CustomResourceDefinition',
      metadata: { name: 'crontabs.stable.example.com' },
      spec: {
        group: 'stable.example.com',
        scope: 'Namespaced',
        names: { plural: 'crontabs', singular: 'crontab', kind: 'CronTab' },
        versions: [
          {
            name: 'v1',
            served: true,
            storage: true,
            schema: {
              openAPIV3Schema: {
                type: 'object',
                properties: {
                  spec: {
                    type: 'object',
                    description: 'The desired cron tab.',
                    required: ['cronSpec'],
                    properties: { cronSpec: { type: 'string', description: 'When to run.' }, replicas: { type: 'integer' } },
                  },
                },
              },
            },
          },
        ],
      },
    } as never);
    c.runUntilIdle({ maxTimeMs: 5_000 });
    expect(await kubectl(c, 'kubectl explain crontab.spec')).toMatchObject({
      stdout: text(
        'GROUP:      stable.example.com',
        'KIND:       CronTab',
        'VERSION:    v1',
        '',
        'FIELD: spec <Object>',
        '',
        '',
        'DESCRIPTION:',
        '    The desired cron tab.',
        '    ',
        'FIELDS:',
        '  cronSpec\t<string> -required-',
        '    When to run.',
        '',
        '  replicas\t<integer>',
        '    <no description>',
        '',
        '',
      ),
      exitCode: 0,
    });
  });
});

// The samples gallery: manifests a person can load into the editor with one choice.
export interface Sample {
  id: string;
  title: string;
  manifest: string;
}

export const samples: readonly Sample[] = [
  {
    id: 'nginx-deployment',
    title: 'nginx Deployment (3 replicas)',
    manifest: `apiVersion: apps/v1
kind: Deployment
metadata:
  name: nginx
  labels:
    app: nginx
spec:
  replicas: 3
  selector:
    matchLabels:
      app: nginx
  template:
    metadata:
      labels:
        app: nginx
    spec:
      containers:
      - name: nginx
        image: nginx:1.14.2
        ports:
        - containerPort: 80
`,
  },
  {
    id: 'service',
    title: 'Service for nginx',
    manifest: `apiVersion: v1
kind: Service
metadata:
  name: nginx
spec:
  selector:
    app: nginx
  ports:
  - protocol: TCP
    port: 80
    targetPort: 80
`,
  },
  {
    id: 'statefulset',
    title: 'StatefulSet with its headless Service',
    manifest: `apiVersion: v1
kind: Service
metadata:
  name: web
  labels:
    app: web
spec:
  clusterIP: None
  selector:
    app: web
  ports:
  - name: http
    port: 80
---
apiVersion: apps/v1
kind: StatefulSet
metadata:
  name: web
spec:
  serviceName: web
  replicas: 3
  selector:
    matchLabels:
      app: web
  template:
    metadata:
      labels:
        app: web
    spec:
      containers:
      - name: nginx
        image: nginx:1.27
        ports:
        - name: http
          containerPort: 80
`,
  },
  {
    id: 'daemonset',
    title: 'DaemonSet (a log agent on every node)',
    manifest: `apiVersion: apps/v1
kind: DaemonSet
metadata:
  name: log-agent
  namespace: kube-system
  labels:
    app: log-agent
spec:
  selector:
    matchLabels:
      app: log-agent
  template:
    metadata:
      labels:
        app: log-agent
    spec:
      tolerations:
      - key: node-role.kubernetes.io/control-plane
        operator: Exists
        effect: NoSchedule
      containers:
      - name: agent
        image: busybox:1.36
        command: ["sh", "-c", "while true; do echo shipping logs from $(hostname); sleep 30; done"]
        resources:
          requests:
            cpu: 50m
            memory: 64Mi
`,
  },
  {
    id: 'job',
    title: 'Job (5 completions, 2 at a time)',
    manifest: `apiVersion: batch/v1
kind: Job
metadata:
  name: batch-work
spec:
  completions: 5
  parallelism: 2
  backoffLimit: 4
  template:
    spec:
      restartPolicy: Never
      containers:
      - name: worker
        image: busybox:1.36
        command: ["sh", "-c", "echo processing item; sleep 8; echo done"]
`,
  },
  {
    id: 'cronjob',
    title: 'CronJob (every minute)',
    manifest: `apiVersion: batch/v1
kind: CronJob
metadata:
  name: hello
spec:
  schedule: "*/1 * * * *"
  successfulJobsHistoryLimit: 3
  jobTemplate:
    spec:
      template:
        spec:
          restartPolicy: OnFailure
          containers:
          - name: hello
            image: busybox:1.36
            command: ["sh", "-c", "date; echo Hello from kubeplay"]
`,
  },
  {
    id: 'unschedulable-pod',
    title: 'Pod that cannot be scheduled (cpu: 100)',
    manifest: `apiVersion: v1
kind: Pod
metadata:
  name: too-big
spec:
  containers:
  - name: app
    image: nginx:1.14.2
    resources:
      requests:
        cpu: "100"
`,
  },
  {
    id: 'crash-loop-pod',
    title: 'Crash-looping pod',
    manifest: `apiVersion: v1
kind: Pod
metadata:
  name: crasher
spec:
  containers:
  - name: app
    image: busybox:1.36
    command: ["sh", "-c", "sleep 5; exit 1"]
`,
  },
  {
    id: 'missing-image-pod',
    title: 'Image that does not exist (nginx:1.999)',
    manifest: `apiVersion: v1
kind: Pod
metadata:
  name: no-such-image
spec:
  containers:
  - name: app
    image: nginx:1.999
`,
  },
];

export const defaultManifest = samples[0].manifest;

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

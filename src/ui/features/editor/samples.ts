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
  {
    id: 'service-traffic-networkpolicy',
    title: 'Service traffic + NetworkPolicy',
    manifest: `# Send traffic to Service "web" (inspector → Send traffic): from Pod "client" nginx answers;
# from outside the cluster the NetworkPolicy drops it. Flip it: delete the policy, or change
# role: client below, and send again.
apiVersion: apps/v1
kind: Deployment
metadata:
  name: web
spec:
  replicas: 2
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
---
apiVersion: v1
kind: Service
metadata:
  name: web
spec:
  selector:
    app: web
  ports:
  - port: 80
    targetPort: http
---
apiVersion: v1
kind: Pod
metadata:
  name: client
  labels:
    role: client
spec:
  containers:
  - name: client
    image: busybox:1.36
    command: ["sleep", "infinity"]
---
# Selecting app=web isolates those pods for ingress: only what a rule allows gets in.
apiVersion: networking.k8s.io/v1
kind: NetworkPolicy
metadata:
  name: web-allow-client
spec:
  podSelector:
    matchLabels:
      app: web
  policyTypes:
  - Ingress
  ingress:
  - from:
    - podSelector:
        matchLabels:
          role: client
    ports:
    - port: http
`,
  },
  {
    id: 'ingress',
    title: 'Ingress: one host, two paths to two Services',
    manifest: `# ingress-nginx (the IngressClass "nginx") routes http://hello.example/ to Service "web" (nginx)
# and http://hello.example/docs… to Service "docs" (httpd). \`kubectl get ingress\` shows its ADDRESS.
apiVersion: apps/v1
kind: Deployment
metadata:
  name: web
spec:
  replicas: 2
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
        - containerPort: 80
---
apiVersion: v1
kind: Service
metadata:
  name: web
spec:
  selector:
    app: web
  ports:
  - port: 80
---
apiVersion: apps/v1
kind: Deployment
metadata:
  name: docs
spec:
  replicas: 1
  selector:
    matchLabels:
      app: docs
  template:
    metadata:
      labels:
        app: docs
    spec:
      containers:
      - name: httpd
        image: httpd:2.4
        ports:
        - containerPort: 80
---
apiVersion: v1
kind: Service
metadata:
  name: docs
spec:
  selector:
    app: docs
  ports:
  - port: 8080
    targetPort: 80
---
apiVersion: networking.k8s.io/v1
kind: Ingress
metadata:
  name: hello
spec:
  ingressClassName: nginx
  rules:
  - host: hello.example
    http:
      paths:
      - path: /
        pathType: Prefix
        backend:
          service:
            name: web
            port:
              number: 80
      - path: /docs
        pathType: Prefix
        backend:
          service:
            name: docs
            port:
              number: 8080
`,
  },
  {
    id: 'hpa',
    title: 'HorizontalPodAutoscaler',
    manifest: `# The docs' HPA walkthrough: php-apache (cpu request 200m) scaled between 1 and 10 replicas to keep
# its pods at 50% of their cpu request. Select the Deployment and raise its Load (e.g. 1000m) in the
# inspector: the HPA scales it up within a few syncs; drop the Load to 0 and it scales down after 5 minutes.
apiVersion: apps/v1
kind: Deployment
metadata:
  name: php-apache
spec:
  selector:
    matchLabels:
      app.kubernetes.io/name: php-apache
  template:
    metadata:
      labels:
        app.kubernetes.io/name: php-apache
    spec:
      containers:
      - name: php-apache
        image: registry.k8s.io/hpa-example
        ports:
        - containerPort: 80
        resources:
          limits:
            cpu: 500m
          requests:
            cpu: 200m
---
apiVersion: v1
kind: Service
metadata:
  name: php-apache
  labels:
    app.kubernetes.io/name: php-apache
spec:
  ports:
  - port: 80
  selector:
    app.kubernetes.io/name: php-apache
---
apiVersion: autoscaling/v2
kind: HorizontalPodAutoscaler
metadata:
  name: php-apache
spec:
  scaleTargetRef:
    apiVersion: apps/v1
    kind: Deployment
    name: php-apache
  minReplicas: 1
  maxReplicas: 10
  metrics:
  - type: Resource
    resource:
      name: cpu
      target:
        type: Utilization
        averageUtilization: 50
`,
  },
  {
    id: 'pvc-pod',
    title: 'PersistentVolumeClaim and a Pod writing to it',
    manifest: `apiVersion: v1
kind: PersistentVolumeClaim
metadata:
  name: data
spec:
  accessModes:
  - ReadWriteOnce
  resources:
    requests:
      storage: 1Gi
---
apiVersion: v1
kind: Pod
metadata:
  name: writer
spec:
  containers:
  - name: writer
    image: busybox:1.36
    command: ["sh", "-c", "date > /data/started && sleep 3600"]
    volumeMounts:
    - name: data
      mountPath: /data
  volumes:
  - name: data
    persistentVolumeClaim:
      claimName: data
`,
  },
  {
    id: 'config-env-files',
    title: 'ConfigMap and Secret as env and files',
    manifest: `apiVersion: v1
kind: ConfigMap
metadata:
  name: special-config
data:
  SPECIAL_LEVEL: very
  SPECIAL_TYPE: charm
---
apiVersion: v1
kind: Secret
metadata:
  name: test-secret
data:
  username: bXktYXBw
  password: Mzk1MjgkdmRnN0pi
---
apiVersion: v1
kind: Pod
metadata:
  name: config-demo
spec:
  containers:
  - name: app
    image: registry.k8s.io/busybox:1.27.2
    command: ["/bin/sh", "-c", "sleep 3600"]
    envFrom:
    - configMapRef:
        name: special-config
    env:
    - name: SECRET_USERNAME
      valueFrom:
        secretKeyRef:
          name: test-secret
          key: username
    volumeMounts:
    - name: config-volume
      mountPath: /etc/config
    - name: secret-volume
      mountPath: /etc/secret-volume
      readOnly: true
  volumes:
  - name: config-volume
    configMap:
      name: special-config
  - name: secret-volume
    secret:
      secretName: test-secret
`,
  },
  {
    id: 'pdb-drain',
    title: 'PodDisruptionBudget + drain',
    manifest: `apiVersion: apps/v1
kind: Deployment
metadata:
  name: web
  labels:
    app: web
spec:
  replicas: 4
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
        - containerPort: 80
---
apiVersion: policy/v1
kind: PodDisruptionBudget
metadata:
  name: web-pdb
spec:
  minAvailable: 3
  selector:
    matchLabels:
      app: web
`,
  },
];

export const defaultManifest = samples[0].manifest;

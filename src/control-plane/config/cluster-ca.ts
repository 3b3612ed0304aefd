// The cluster's root CA: what kubeadm writes to /etc/kubernetes/pki/ca.crt and kube-controller-manager reads
// with --root-ca-file. A real self-signed certificate (ECDSA P-256, CN=kubernetes), the same in every playground:
// nothing here verifies TLS, but a learner who reads the file in a pod or the kube-root-ca.crt ConfigMap sees
// what a cluster would give them.
export const clusterRootCA = `-----BEGIN CERTIFICATE-----
MIIBjzCCATWgAwIBAgIUJT01OAFcS1Ml+hpIX7kuFryqy5AwCgYIKoZIzj0EAwIw
FTETMBEGA1UEAwwKa3ViZXJuZXRlczAeFw0yNjExMjMwNTMxMzRaFw0zNjExMjAw
NTMxMzRaMBUxEzARBgNVBAMMCmt1YmVybmV0ZXMwWTATBgcqhkjOPQIBBggqhkjO
PQMBBwNCAASDFMpCzN8n0Fv7siMMQ8KR/87B3evia1zuZEefw5sIsYAF0EGL6pZB
bzHl02Cws6Ld7CO2b89jV6ETQ4prrWAZo2MwYTAdBgNVHQ4EFgQUIIoAIR+D2NOy
4Ko89fO22sZaSgUwHwYDVR0jBBgwFoAUIIoAIR+D2NOy4Ko89fO22sZaSgUwDgYD
VR0PAQH/BAQDAgKkMA8GA1UdEwEB/wQFMAMBAf8wCgYIKoZIzj0EAwIDSAAwRQIg
JruVz0zoWAqng5NKYj2omezELL4Nb1hTW0YhTW3y7n0CIQDmTNqBcGUo17DRhalX
aX+rDe/gCBAnJpdo5i73O+4+JQ==
-----END CERTIFICATE-----
`;

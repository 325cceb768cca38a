/**
 * A real Kubernetes control plane (kube-apiserver and etcd from a `KUBEBUILDER_ASSETS` folder,
 * as controller-runtime's envtest starts them), for tests and `svc-operator dev`. It owns starting
 * and stopping them, their certificates and the admin kubeconfig; not what runs on them.
 */

export * from "./control-plane.ts";

/** The namespace `svc-operator dev` applies the samples to. */
export const DEMO_NAMESPACE = "demo";

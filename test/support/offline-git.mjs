// No test reaches the internet: Git is told to refuse its network transports (http, https, git) for
// every process a suite starts, through the GIT_CONFIG_COUNT environment (Git 2.31+), which each
// child inherits. A command that would ask a real remote (`writ init` asking `git ls-remote` for the
// default branch of https://github.com/acme/widgets) fails at once and takes its offline path. Local
// paths, file:// and the ssh transport a suite points at a bare repository stay allowed.

/** The environment that keeps Git off the network, to merge into an explicit child environment. */
export const OFFLINE_GIT_ENV = {
  GIT_CONFIG_COUNT: '3',
  GIT_CONFIG_KEY_0: 'protocol.http.allow',
  GIT_CONFIG_VALUE_0: 'never',
  GIT_CONFIG_KEY_1: 'protocol.https.allow',
  GIT_CONFIG_VALUE_1: 'never',
  GIT_CONFIG_KEY_2: 'protocol.git.allow',
  GIT_CONFIG_VALUE_2: 'never',
};

/** Sets OFFLINE_GIT_ENV on this process, before Jest starts its workers (they inherit it). */
export function forbidNetworkGit() {
  Object.assign(process.env, OFFLINE_GIT_ENV);
}

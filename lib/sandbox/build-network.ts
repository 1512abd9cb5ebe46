// The network an image build gets. Harbor's contract, which published tasks assume: builds have
// the network (apt-get, pip, cargo at build time), trials do not. ENVOLVE_BUILD_NETWORK chooses:
// `default` (the engine's default bridge; the host network on an engine started without one),
// `host`, or `none`. Trials stay network-off whatever this says.
import type Docker from 'dockerode';
import { BUILD_NETWORKS, settings, type Settings } from '../config/index.ts';
import { isNotFound } from './docker.ts';

export const BUILD_NETWORK_SETTING = 'ENVOLVE_BUILD_NETWORK';
export { BUILD_NETWORKS };
export type BuildNetwork = (typeof BUILD_NETWORKS)[number];

// What a build ran with: the setting, and the network mode the engine was given.
export interface BuildNetworkUsed {
  setting: BuildNetwork;
  mode: 'bridge' | 'host' | 'none';
}

/** ENVOLVE_BUILD_NETWORK, from the settings module. */
export function buildNetworkSetting(s: Settings = settings()): BuildNetwork {
  return s.sandbox.buildNetwork;
}

async function hasDefaultBridge(docker: Docker): Promise<boolean> {
  try {
    await docker.getNetwork('bridge').inspect();
    return true;
  } catch (err) {
    if (isNotFound(err)) return false;
    throw err;
  }
}

export async function resolveBuildNetwork(docker: Docker, setting: BuildNetwork): Promise<BuildNetworkUsed> {
  if (setting !== 'default') return { setting, mode: setting };
  return { setting, mode: (await hasDefaultBridge(docker)) ? 'bridge' : 'host' };
}

// What apt, pip, curl, wget, go, cargo and npm print when a host cannot be resolved or reached.
const NETWORK_FAILURE = new RegExp(
  [
    'Temporary failure resolving',
    'Temporary failure in name resolution',
    'Could not resolve',
    "Couldn't resolve host",
    'Name or service not known',
    'Network is unreachable',
    'unable to resolve host address',
    'Failed to establish a new connection',
    'dial tcp: lookup',
    'getaddrinfo (ENOTFOUND|EAI_AGAIN)',
    'Could not connect to',
    "Couldn't connect to server",
  ].join('|'),
  'i',
);

export function looksLikeNetworkFailure(buildLog: string): boolean {
  return NETWORK_FAILURE.test(buildLog);
}

// One sentence that says the build failed on the network and names the setting.
export function networkFailureMessage(used: BuildNetworkUsed): string {
  if (used.setting === 'none') {
    return `the build needs the network and ${BUILD_NETWORK_SETTING}=none gives it none; set ${BUILD_NETWORK_SETTING}=default to build it`;
  }
  return (
    `the build could not reach a server it downloads from (${BUILD_NETWORK_SETTING}=${used.setting}, ` +
    `built on the ${used.mode} network): that server is unreachable from this machine`
  );
}

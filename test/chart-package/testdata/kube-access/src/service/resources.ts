import type { Gvr } from './ports.js';

export interface ResourceTypes {
  agent: Gvr;
  controllerRevision: Gvr;
  kustomization: Gvr;
  gitRepository: Gvr;
}

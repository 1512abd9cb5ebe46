// What the trajectory pages and routes receive: plain JSON-safe values (ISO dates).
import type { SuspicionReason } from './suspicion.ts';

export interface TrajectoryListItem {
  id: string;
  versionId: string;
  environment: string;
  compromised: boolean;
  lineageId: string | null;
  lineageName: string | null;
  generationId: string | null;
  generationNumber: number | null;
  policy: string;
  policyVersion: string;
  model: string | null;
  simulated: boolean;
  status: string;
  reward: number | null;
  passed: boolean | null;
  timedOut: boolean;
  turns: number;
  durationMs: number;
  medianTurns: number | null;
  suspicion: number;
  reasons: SuspicionReason[];
  flaggedAt: string | null;
  createdAt: string;
}

export interface TrajectoryListPage {
  items: TrajectoryListItem[];
  total: number;
  page: number;
  pageSize: number;
  pageCount: number;
}

export interface TrajectoryFacets {
  policies: string[];
  lineages: { id: string; name: string }[];
  environments: string[];
}

export interface TrajectoryNeighbours {
  position: number | null; // 1-based position in the list order; null when the list no longer holds it
  total: number;
  previousId: string | null;
  nextId: string | null;
}

import { forgetRunClaims } from '../../nodes/shared/runClaims';

// Every test plays its own workflows in a process of its own: no run claimed by an earlier test.
beforeEach(() => forgetRunClaims());

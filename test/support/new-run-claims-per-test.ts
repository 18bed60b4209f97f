import { forgetStoredStates } from '../../nodes/PartnerPayrollTrigger/helpers/stateStore';
import { forgetRunClaims } from '../../nodes/shared/runClaims';

// Every test plays its own workflows in a process of its own: no run claimed, no trigger state kept in
// memory by an earlier test.
beforeEach(() => {
	forgetRunClaims();
	forgetStoredStates();
});

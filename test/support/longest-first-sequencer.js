'use strict';
// The package's longest test files, longest first (test/support/longest-first.js), from the times Jest
// prints; every other file follows in Jest's own order.
const path = require('node:path');
const { longestFirst } = require('./longest-first');

module.exports = longestFirst(path.join(__dirname, '..', '..'), [
	'test/reliability/triggerModel/triggerModel.test.ts',
	'test/reliability/mergeModel/mergeModel.test.ts',
	'test/reliability/declarationModel/declarationModel.test.ts',
	'test/reliability/faultMatrix.test.ts',
	'test/nodes/PartnerPayrollTrigger/helpers/partnerPoll.test.ts',
	'test/nodes/PartnerPayroll/partnerEveryOperation.test.ts',
	'test/nodes/PartnerPayrollTrigger/events/payrollCompleted.test.ts',
	'test/nodes/PartnerPayrollConnectTrigger/PartnerPayrollConnectTrigger.node.test.ts',
]);

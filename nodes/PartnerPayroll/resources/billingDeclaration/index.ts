import { resource } from '../resource';
import { askedBeforeAgentWrites } from './agentGate';
import { create } from './create';

export const billingDeclaration = resource(
	'billingDeclaration',
	'Billing Declaration',
	[askedBeforeAgentWrites(create)],
	'create',
);

import { resource } from '../resource';
import { create } from './create';

export const billingDeclaration = resource(
	'billingDeclaration',
	'Billing Declaration',
	[create],
	'create',
);

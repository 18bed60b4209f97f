import { resource } from '../resource';
import { getHealthInsurance, getProvidentFund } from './listContracts';

export const insuranceContract = resource(
	'insuranceContract',
	'Insurance Contract',
	[getHealthInsurance, getProvidentFund],
	'getHealthInsurance',
);

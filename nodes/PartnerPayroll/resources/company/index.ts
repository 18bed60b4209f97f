import { resource } from '../resource';
import { get } from './get';
import { getConnection } from './getConnection';
import { getFrench } from './getFrench';

export const company = resource('company', 'Company', [get, getConnection, getFrench], 'get', {
	// Its answer is the token's own company: a Company ID would not change it.
	withoutCompanyId: ['getConnection'],
});

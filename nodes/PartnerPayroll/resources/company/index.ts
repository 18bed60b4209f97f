import { resource } from '../resource';
import { get } from './get';
import { getFrench } from './getFrench';

export const company = resource('company', 'Company', [get, getFrench], 'get');

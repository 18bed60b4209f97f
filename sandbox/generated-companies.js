'use strict';
// Generated client companies, for partners at scale (one accounting firm, hundreds of companies): the
// `generatedCompanies` knob adds N of them after the seeded ones. Everything about a generated company is
// derived by formula from its id, so every run serves the same data and nothing is kept per company:
// generated number i (0, 1, 2...) is FR, ES, GB in turn, numbered within its country from 001:
// FR5001, ES6001, GB7001, FR5002, ...

const { seededDigits, boundedCache, deepFreeze } = require('./deterministic');

const COUNTRIES = [
  { country: 'FR', prefix: '5' },
  { country: 'ES', prefix: '6' },
  { country: 'GB', prefix: '7' },
];
const MAX_PER_COUNTRY = 999; // three-digit numbers
const MAX_GENERATED_COMPANIES = COUNTRIES.length * MAX_PER_COUNTRY;
const GENERATED_ID = /^(FR|ES|GB)([567])(\d{3})$/;

const pad = (value, length) => String(value).padStart(length, '0');
const pick = (list, number) => list[number % list.length];

/** Id of generated company number `index` (0-based). */
function generatedCompanyId(index) {
  const { country, prefix } = COUNTRIES[index % COUNTRIES.length];
  return `${country}${prefix}${pad(Math.floor(index / COUNTRIES.length) + 1, 3)}`;
}

/** The 0-based generated index of an id, or -1 when the id is not one of a generated company. */
function generatedIndex(companyId) {
  const match = GENERATED_ID.exec(String(companyId));
  if (!match) return -1;
  const countryIndex = COUNTRIES.findIndex(({ country, prefix }) => country === match[1] && prefix === match[2]);
  const number = Number(match[3]);
  if (countryIndex < 0 || number < 1) return -1;
  return (number - 1) * COUNTRIES.length + countryIndex;
}

function generatedCompanyIds(count) {
  return Array.from({ length: count }, (_, index) => generatedCompanyId(index));
}

/** Luhn check digit of `payload` (SIREN and SIRET are Luhn-valid). */
function luhnCheckDigit(payload) {
  let sum = 0;
  for (let i = 0; i < payload.length; i += 1) {
    let digit = Number(payload[payload.length - 1 - i]);
    if (i % 2 === 0) {
      digit *= 2;
      if (digit > 9) digit -= 9;
    }
    sum += digit;
  }
  return String((10 - (sum % 10)) % 10);
}

/** Spanish CIF of a company of type B (S.L.): B, seven digits, a control digit. */
function cif(digits) {
  let sum = 0;
  for (let i = 0; i < digits.length; i += 1) {
    const digit = Number(digits[i]);
    if (i % 2 === 0) sum += Math.floor((digit * 2) / 10) + ((digit * 2) % 10);
    else sum += digit;
  }
  return `B${digits}${(10 - (sum % 10)) % 10}`;
}

// Word lists, accents and apostrophes included (clients must carry them intact).
const FR = {
  trades: ['Boulangerie', 'Garage', 'Librairie', 'Pharmacie', 'Menuiserie', 'Fromagerie', 'Imprimerie', 'Brasserie', 'Atelier'],
  surnames: ['Martin', 'Lefèvre', 'Dubois', "d'Arcy", 'Moreau', 'Girard', 'Rousseau', 'Bérénice', 'Fontaine', 'Chevalier', 'Mercier'],
  legalForms: ['SAS', 'SARL', 'EURL'],
  streets: ['rue de la République', 'avenue Jean-Jaurès', "place de l'Église", 'boulevard Voltaire', 'quai Saint-Vincent'],
  cities: [['Lyon', '69003'], ['Paris', '75011'], ['Marseille', '13006'], ['Nantes', '44000'], ['Lille', '59000'], ['Bordeaux', '33000'], ['Grenoble', '38000']],
  apeCodes: ['1071C', '4520A', '4761Z', '4773Z', '1623Z', '4729Z', '1812Z', '5630Z', '7410Z'],
  idccs: ['0843', '1090', '3013', '1996', '1597', '1505', '0184', '1979', '1486'],
  firstNames: ['Camille', 'Léa', 'Hugo', 'Chloé', 'Théo', 'Inès', 'Lucas', 'Maëlle', 'Noël'],
  lastNames: ['Bernard', 'Petit', 'Durand', 'Leroy', 'Lefèbvre', 'Roux', 'Fournier', 'Gauthier', 'Faure', 'Crépin', 'Boyer'],
};
const ES = {
  trades: ['Panadería', 'Talleres', 'Librería', 'Farmacia', 'Carpintería', 'Quesería', 'Imprenta'],
  surnames: ['García', 'Fernández', 'López', 'Martínez', 'Sánchez', 'Pérez', 'Gómez', 'Muñoz', 'Díaz', 'Ordóñez', 'Núñez'],
  streets: ['Calle Mayor', 'Avenida de la Constitución', 'Calle del Carmen', 'Paseo de Gracia', 'Calle de Alcalá'],
  cities: [['Madrid', '28014'], ['Barcelona', '08008'], ['Sevilla', '41004'], ['Valencia', '46002'], ['Bilbao', '48001'], ['Zaragoza', '50001'], ['Málaga', '29005']],
  firstNames: ['Lucía', 'Mateo', 'Sofía', 'Martín', 'Águeda', 'Hugo', 'Iñaki', 'Carmen', 'Begoña'],
  lastNames: ['Rodríguez', 'González', 'Hernández', 'Ruiz', 'Jiménez', 'Álvarez', 'Moreno', 'Romero', 'Navarro', 'Peña', 'Ibáñez'],
};
const GB = {
  trades: ['Bakery', 'Motors', 'Books', 'Pharmacy', 'Joinery', 'Cheese Co', 'Print Works', 'Brewing'],
  surnames: ['Harper', 'Whitfield', "O'Neill", 'Ashworth', 'Pemberton', 'Kirkby', 'MacLeod', 'Thornton', 'Ellison', 'Fairbairn', 'Llewellyn'],
  streets: ['High Street', 'Station Road', 'Church Lane', 'Victoria Road', 'Market Place'],
  cities: [['London', 'EC1V 9HX'], ['Manchester', 'M1 2AB'], ['Leeds', 'LS1 4DY'], ['Glasgow', 'G1 1XQ'], ['Cardiff', 'CF10 1EP'], ['Bristol', 'BS1 4ST'], ['Belfast', 'BT1 5GS']],
  firstNames: ['Oliver', 'Amelia', 'George', 'Isla', 'Harry', 'Siobhan', 'Rhys', 'Aisha', 'Eilidh'],
  lastNames: ['Smith', 'Jones', 'Taylor', 'Brown', 'Wilson', 'Evans', 'Thomas', 'Roberts', 'Walker', 'Wright', 'Robinson'],
};
const WORDS = { FR, ES, GB };

function companyRecordOf(companyId, country, number, index) {
  const words = WORDS[country];
  const [city, postalCode] = pick(words.cities, number);
  const base = {
    id: companyId,
    country,
    address: `${number} ${pick(words.streets, number * 3)}`,
    city,
    postalCode,
    // Each company closes its months at its own hour (08 to 17 UTC), like the seeded ones (14 to 17).
    executionHourUtc: 8 + (index % 10),
  };
  if (country === 'FR') {
    const legalForm = pick(FR.legalForms, number);
    const siren = `4${pad(number, 3)}${seededDigits(`siren:${companyId}`, 4)}`;
    const sirenWithCheck = `${siren}${luhnCheckDigit(siren)}`;
    const siret = `${sirenWithCheck}0001${luhnCheckDigit(`${sirenWithCheck}0001`)}`;
    return {
      ...base,
      name: `${pick(FR.trades, number)} ${pick(FR.surnames, number * 7)} ${legalForm}`,
      identificationNumber: siret,
      french: { siren: sirenWithCheck, siret, legalForm, apeCode: pick(FR.apeCodes, number), idcc: pick(FR.idccs, number) },
    };
  }
  if (country === 'ES') {
    return {
      ...base,
      name: `${pick(ES.trades, number)} ${pick(ES.surnames, number * 7)} S.L.`,
      identificationNumber: cif(`6${pad(number, 3)}${seededDigits(`cif:${companyId}`, 3)}`),
    };
  }
  return {
    ...base,
    name: `${pick(GB.surnames, number * 7)} ${pick(GB.trades, number)} Ltd`,
    identificationNumber: `07${pad(number, 3)}${seededDigits(`crn:${companyId}`, 3)}`, // Companies House number
  };
}

/** Two to four active contracts; GB companies also have a leaver (their P45). FR ones with odd numbers have analytics. */
function contractsOf(companyId, country, number) {
  const words = WORDS[country];
  const activeCount = 2 + (number % 3);
  const count = activeCount + (country === 'GB' ? 1 : 0);
  return Array.from({ length: count }, (_, i) => {
    const k = i + 1;
    const analyticCodes = country === 'FR' && number % 2 === 1
      ? [{ type: 'Équipe', code: `EQ${k % 2}`, value: k % 2 ? 'Atelier' : 'Bureau; accueil' }]
      : [];
    return {
      contractId: `ctr_${companyId.toLowerCase()}_${pad(k, 3)}`,
      fullName: `${pick(words.firstNames, number + k)} ${pick(words.lastNames, number * 3 + k)}`,
      active: k <= activeCount,
      grossCents: 180000 + ((number * 7919 + k * 104729) % 200000),
      analyticCodes,
    };
  });
}

/** GB documents, shaped like GB3001's: P60s, a P11D, the leaver's P45, an auto-enrolment letter, a never-listed payslip. */
function documentsOf(companyId, contracts, number) {
  const lower = companyId.toLowerCase();
  const active = contracts.filter((contract) => contract.active);
  const leaver = contracts.find((contract) => !contract.active);
  const first = active[0];
  const second = pad(number % 60, 2);
  const suffix = (contract) => contract.contractId.slice(-3);
  return [
    ...active.map((contract, i) => ({
      documentId: `${lower}-p60-2025-${suffix(contract)}`, listing: 'incomeTaxes', type: 'P60', contractId: contract.contractId,
      year: '2025', month: '04', createdAt: `2025-05-20T09:15:${pad(i, 2)}.000Z`,
    })),
    { documentId: `${lower}-p11d-2025-${suffix(first)}`, listing: 'incomeTaxes', type: 'P11D', contractId: first.contractId, year: '2025', month: '07', createdAt: `2025-07-01T08:30:${second}.000Z` },
    { documentId: `${lower}-p45-2026-${suffix(leaver)}`, listing: 'incomeTaxes', type: 'P45', contractId: leaver.contractId, year: '2026', month: '08', createdAt: `2026-08-29T16:05:${second}.000Z` },
    { documentId: `${lower}-ae-2026-${suffix(first)}`, listing: 'autoEnrolment', type: 'AutoEnrolmentLetter', contractId: first.contractId, year: '2026', month: '07', createdAt: `2026-07-03T10:00:${second}.000Z` },
    { documentId: `${lower}-payslip-202607-${suffix(first)}`, listing: null, type: 'Payslip', contractId: first.contractId, year: '2026', month: '07', createdAt: '2026-07-28T14:42:05.000Z' },
  ];
}

/** French insurance contracts; every fourth company has none (empty lists, like FR1002). */
function insuranceOf(companyId, contracts, number) {
  if (number % 4 === 0) return { healthInsurance: [], providentFund: [] };
  const lower = companyId.toLowerCase();
  const affiliated = contracts.filter((contract) => contract.active).map((contract) => contract.contractId);
  return {
    healthInsurance: [{
      idContrat: `hi-${lower}-001`, refContrat: `MUT-2026-${pad(number, 3)}`, codePopulation: 'TOUS', codeOption: number % 2 ? 'OPT1' : null,
      affiliatedContractIds: affiliated, modeCalculCotisation: '1', baseDeCotisation: '2', tauxCotisationPatronale: 0.5, tauxCotisationSalariale: 0.5,
    }],
    providentFund: [{
      idContrat: `pf-${lower}-001`, refContrat: null, codePopulation: 'TOUS', codeOption: null,
      affiliatedContractIds: affiliated, modeCalculCotisation: '2', baseDeCotisation: number % 2 ? '6' : '5',
    }],
  };
}

/**
 * Everything about a generated company, or null for any other id: `{company, contracts, documents,
 * healthInsurance, providentFund}`, frozen. Existence in a given sandbox is the knob's business, not this one's.
 */
const generatedCompany = boundedCache((companyId) => {
  const index = generatedIndex(companyId);
  if (index < 0 || index >= MAX_GENERATED_COMPANIES) return null;
  const { country } = COUNTRIES[index % COUNTRIES.length];
  const number = Math.floor(index / COUNTRIES.length) + 1;
  const contracts = contractsOf(companyId, country, number);
  const insurance = country === 'FR' ? insuranceOf(companyId, contracts, number) : { healthInsurance: [], providentFund: [] };
  return deepFreeze({
    company: companyRecordOf(companyId, country, number, index),
    contracts,
    documents: country === 'GB' ? documentsOf(companyId, contracts, number) : [],
    ...insurance,
  });
}, (companyId) => String(companyId), MAX_GENERATED_COMPANIES);

module.exports = { generatedCompany, generatedCompanyIds, MAX_GENERATED_COMPANIES };

/**
 * What Typesense's official clients' live suites (Python, Go) expect from the engine, run
 * against the sandbox: each case repeats a suite's flow and its expected answer.
 */
import { start, type Running } from './helpers';

const COMPANIES = {
  name: 'companies',
  fields: [
    { name: 'company_name', type: 'string' },
    { name: 'num_employees', type: 'int32' },
    { name: 'country', type: 'string', facet: true }
  ],
  default_sorting_field: 'num_employees'
};

const company = (id: string, name: string, employees: number) => ({
  id,
  company_name: name,
  num_employees: employees,
  country: 'USA'
});

describe.each(['29.0', '30.0'])(
  'Typesense sandbox %s: the official clients suites expectations',
  version => {
    let t: Running;
    beforeAll(async () => {
      t = await start({ version });
    });
    afterAll(() => t.close());

    async function freshCompanies(): Promise<void> {
      const listed = (await t.call('GET', '/collections')).json() as {
        name: string;
      }[];
      for (const c of listed) {
        expect((await t.call('DELETE', `/collections/${c.name}`)).status).toBe(
          200
        );
      }
      const created = await t.call('POST', '/collections', {
        body: {
          name: 'companies',
          fields: COMPANIES.fields.slice(0, 2),
          default_sorting_field: 'num_employees'
        }
      });
      expect(created.status).toBe(201);
    }

    test('PATCH /collections/companies adding a field answers the field with the defaults filled in', async () => {
      await freshCompanies();
      const patched = await t.call('PATCH', '/collections/companies', {
        body: { fields: [{ name: 'num_locations', type: 'int32' }] }
      });
      expect(patched.status).toBe(200);
      const fields = (patched.json() as { fields: unknown[] }).fields;
      expect(fields[0]).toMatchObject({
        name: 'num_locations',
        type: 'int32',
        facet: false,
        index: true,
        optional: false,
        locale: '',
        sort: true,
        infix: false,
        stem: false
      });
      // Once more after the suite's clean-up: the same name is a new collection again.
      await freshCompanies();
      const again = await t.call('PATCH', '/collections/companies', {
        body: { fields: [{ name: 'num_locations', type: 'int32' }] }
      });
      expect(again.status).toBe(200);
    });

    test('a stopwords set reads back as the engine stores it: tokens in its hash order', async () => {
      const put = await t.call('PUT', '/stopwords/company_stopwords', {
        body: { stopwords: ['and', 'is', 'the'] }
      });
      expect(put.status).toBe(200);
      expect(
        (await t.call('GET', '/stopwords/company_stopwords')).json()
      ).toEqual({
        stopwords: { id: 'company_stopwords', stopwords: ['and', 'is', 'the'] }
      });
      const upsert = {
        locale: 'en',
        stopwords: ['Germany', 'France', 'Italy', 'United States']
      };
      const countries = await t.call('PUT', '/stopwords/countries', {
        body: upsert
      });
      expect(countries.json()).toEqual({ id: 'countries', ...upsert });
      const expected = {
        id: 'countries',
        locale: 'en',
        stopwords: ['states', 'united', 'france', 'germany', 'italy']
      };
      expect((await t.call('GET', '/stopwords/countries')).json()).toEqual({
        stopwords: expected
      });
      const all = (await t.call('GET', '/stopwords')).json() as {
        stopwords: { id: string }[];
      };
      expect(all.stopwords.find(s => s.id === 'countries')).toEqual(expected);
    });

    test('multi_search with a stopwords set: a query made only of stopwords finds nothing', async () => {
      await t.call('POST', '/collections', {
        body: { ...COMPANIES, name: 'companies_a' }
      });
      await t.call('POST', '/collections', {
        body: { ...COMPANIES, name: 'companies_b' }
      });
      const docs = [
        company('123', 'Company 1', 50),
        company('125', 'Company 2', 150),
        company('127', 'Company Stark Industries 3', 1000),
        company('129', 'Stark Industries 4', 1500)
      ];
      t.sandbox.loadDocuments('companies_a', docs);
      t.sandbox.loadDocuments('companies_b', docs);
      await t.call('PUT', '/stopwords/stark', {
        body: { locale: 'en', stopwords: ['Stark Industries'] }
      });
      const found = await t.call(
        'POST',
        '/multi_search?query_by=company_name&stopwords=stark',
        {
          body: {
            searches: [
              {
                q: 'Company Stark',
                collection: 'companies_a',
                sort_by: 'num_employees:desc'
              },
              { q: 'Stark', collection: 'companies_b' }
            ]
          }
        }
      );
      expect(found.status).toBe(200);
      const results = (
        found.json() as {
          results: { found: number; hits: { document: { id: string } }[] }[];
        }
      ).results;
      expect(results[0]?.hits.map(h => h.document.id)).toEqual([
        '127',
        '125',
        '123'
      ]);
      expect(results[1]?.found).toBe(0);
      expect(results[1]?.hits).toEqual([]);
      const single = await t.call(
        'GET',
        '/collections/companies_b/documents/search?q=Stark&query_by=company_name&stopwords=stark'
      );
      expect((single.json() as { found: number }).found).toBe(0);
    });
  }
);

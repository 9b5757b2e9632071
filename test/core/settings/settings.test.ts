import { expect } from 'chai';
import { loadConfig } from '../../../core/settings/settings.js';

describe('configuration from the environment', () => {
  it('reads the defaults and the variables', () => {
    expect(loadConfig({})).to.include({
      port: 3000,
      keyPrefix: 'svc',
      errorTypeBase: 'https://errors.finsynth.dev',
      logLevel: 'info',
      readChunkSizes: false,
    });
    expect(loadConfig({ FINSYNTH_READ_CHUNK_SIZES: 'true' }).readChunkSizes).to.equal(true);
    expect(loadConfig({ FINSYNTH_READ_CHUNK_SIZES: '0' }).readChunkSizes).to.equal(false);
    const config = loadConfig({
      PORT: '8080',
      FINSYNTH_KEY_PREFIX: 'acme',
      FINSYNTH_ERROR_TYPE_BASE: 'https://errors.example.com/',
      FINSYNTH_REDIS_URL: 'redis://r:6379',
    });
    expect(config).to.include({
      port: 8080,
      keyPrefix: 'acme',
      errorTypeBase: 'https://errors.example.com',
      redisUrl: 'redis://r:6379',
    });
  });

  it('takes a variable set to nothing as unset: its default holds', () => {
    const empty = {
      PORT: '',
      FINSYNTH_DATA_DIR: ' ',
      FINSYNTH_POOL_SIZE: '',
      FINSYNTH_KEY_PREFIX: '',
      FINSYNTH_LOG_LEVEL: '',
      FINSYNTH_POSTGRES_URL: '',
      FINSYNTH_RESULTS_DIR: '',
    };
    const config = loadConfig(empty);
    const defaults = loadConfig({});
    expect(config).to.include({
      port: 3000,
      dataDir: defaults.dataDir,
      poolSize: defaults.poolSize,
      keyPrefix: 'svc',
      logLevel: 'info',
      resultsDir: defaults.resultsDir,
      postgresUrl: undefined,
    });
  });

  it('refuses a mistyped variable, naming it', () => {
    const cases: [Record<string, string>, RegExp][] = [
      [{ PORT: 'eighty' }, /PORT/],
      [{ PORT: '70000' }, /PORT/],
      [{ FINSYNTH_POOL_SIZE: '0' }, /FINSYNTH_POOL_SIZE/],
      [{ FINSYNTH_JOB_LEASE_MS: '1.5' }, /FINSYNTH_JOB_LEASE_MS/],
      [{ FINSYNTH_KEY_PREFIX: 'Bad_Prefix' }, /FINSYNTH_KEY_PREFIX/],
      [{ FINSYNTH_ERROR_TYPE_BASE: 'not a uri' }, /FINSYNTH_ERROR_TYPE_BASE/],
      [{ FINSYNTH_LOG_LEVEL: 'loud' }, /FINSYNTH_LOG_LEVEL/],
      [{ FINSYNTH_READ_CHUNK_SIZES: 'yes' }, /FINSYNTH_READ_CHUNK_SIZES/],
    ];
    for (const [env, message] of cases) expect(() => loadConfig(env), JSON.stringify(env)).to.throw(message);
  });
});

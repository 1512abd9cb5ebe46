// Prisma's schema engine compiled to WebAssembly: migrations without Prisma's native binary.
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { bindMigrationAwareSqlAdapterFactory } from '@prisma/driver-adapter-utils';
import type { SqlDriverAdapter, SqlMigrationAwareDriverAdapterFactory } from '@prisma/driver-adapter-utils';
import * as glue from '@prisma/schema-engine-wasm/schema_engine_bg';
import type { SchemaEngine } from '@prisma/schema-engine-wasm/schema_engine_bg';
import { logger } from '../log/index.ts';

let engineModule: Promise<typeof glue> | undefined;

// The package's entry imports the .wasm as an ES module, which Node cannot do; instantiate it by hand, once.
function loadEngineModule(): Promise<typeof glue> {
  engineModule ??= (async () => {
    const require = createRequire(import.meta.url);
    const gluePath = require.resolve('@prisma/schema-engine-wasm/schema_engine_bg');
    const bytes = await readFile(gluePath.replace(/\.js$/, '.wasm'));
    const { instance } = await WebAssembly.instantiate(bytes, { './schema_engine_bg.js': glue });
    const exports = instance.exports as { __wbindgen_start: () => void };
    glue.__wbg_set_wasm(exports);
    exports.__wbindgen_start();
    return glue;
  })();
  return engineModule;
}

export interface SchemaFile {
  path: string;
  content: string;
}

/** Runs `use` with an engine, then frees it and closes every connection it opened (the engine leaves them open). */
export async function withSchemaEngine<T>(
  schema: SchemaFile,
  adapterFactory: SqlMigrationAwareDriverAdapterFactory,
  use: (engine: SchemaEngine) => Promise<T>,
): Promise<T> {
  const { SchemaEngine } = await loadEngineModule();
  const connections: SqlDriverAdapter[] = [];
  const remember = (connection: SqlDriverAdapter) => {
    connections.push(connection);
    return connection;
  };
  const trackingFactory: SqlMigrationAwareDriverAdapterFactory = {
    provider: adapterFactory.provider,
    adapterName: adapterFactory.adapterName,
    connect: async () => remember(await adapterFactory.connect()),
    connectToShadowDb: async () => remember(await adapterFactory.connectToShadowDb()),
  };
  const log = (message: string) => logger().debug(message, { component: 'schema-engine' });
  const engine = await SchemaEngine.new({ datamodels: [[schema.path, schema.content]] }, log, bindMigrationAwareSqlAdapterFactory(trackingFactory));
  try {
    return await use(engine);
  } finally {
    engine.free();
    await Promise.all(connections.map((connection) => connection.dispose()));
  }
}

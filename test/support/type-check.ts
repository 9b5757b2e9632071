import { fileURLToPath } from 'node:url';
import ts from 'typescript';

/** The client's source, which `@finsynth/client` resolves to in samples, as the package exports it. */
const CLIENT_ENTRY = fileURLToPath(new URL('../../clients/typescript/src/index.ts', import.meta.url));

/** Where samples are placed for the compiler (nothing is written there): inside the project, so its types resolve. */
const SAMPLES_FOLDER = fileURLToPath(new URL('./samples/', import.meta.url));

/**
 * Type-checks TypeScript samples (name → source) as ES modules, strict as the project is, with
 * `@finsynth/client` mapped to the client's source; answers `name:line: message` per problem.
 */
export function typeCheckSamples(samples: ReadonlyMap<string, string>): string[] {
  const files = new Map([...samples].map(([name, source]) => [`${SAMPLES_FOLDER}${name}.mts`, source]));
  const options: ts.CompilerOptions = {
    strict: true,
    noEmit: true,
    skipLibCheck: true,
    target: ts.ScriptTarget.ES2022,
    module: ts.ModuleKind.NodeNext,
    moduleResolution: ts.ModuleResolutionKind.NodeNext,
    types: ['node'],
    paths: { '@finsynth/client': [CLIENT_ENTRY] },
  };
  const host = ts.createCompilerHost(options);
  const { fileExists, readFile, getSourceFile } = host;
  host.fileExists = (file) => files.has(file) || fileExists(file);
  host.readFile = (file) => files.get(file) ?? readFile(file);
  host.getSourceFile = (file, language, ...rest) =>
    files.has(file) ? ts.createSourceFile(file, files.get(file)!, language) : getSourceFile(file, language, ...rest);
  const program = ts.createProgram([...files.keys()], options, host);
  return ts
    .getPreEmitDiagnostics(program)
    .filter((diagnostic) => diagnostic.file && files.has(diagnostic.file.fileName))
    .map((diagnostic) => {
      const { line } = diagnostic.file!.getLineAndCharacterOfPosition(diagnostic.start ?? 0);
      const name = diagnostic.file!.fileName.slice(SAMPLES_FOLDER.length, -'.mts'.length);
      return `${name}:${line + 1}: ${ts.flattenDiagnosticMessageText(diagnostic.messageText, ' ')}`;
    });
}

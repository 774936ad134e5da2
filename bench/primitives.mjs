// prompts/get and resources/read round trips to server-everything: through `lazytools serve`
// (stdio) vs the same server called directly, interleaved in one run.
import { BIN, interleave, project, serverEntry, promptAndResource, stdioClient, summary, round } from './lib.mjs';

export async function primitivesStdio({ rounds = 1500 } = {}) {
  const { dir } = project(['everything'], { defaultMode: 'debugging' });
  const direct = await stdioClient([serverEntry('everything'), 'stdio']);
  const gateway = await stdioClient([BIN, 'serve'], { cwd: dir });

  const { prompt, resource } = await promptAndResource(direct);
  const exposed = (await gateway.listPrompts()).prompts.find((p) => p.name === prompt.name || p.name.endsWith(`_${prompt.name}`));
  if (!exposed) throw new Error(`lazytools does not list prompt ${prompt.name}`);

  const [directGet, gatewayGet] = await interleave([() => direct.getPrompt({ name: prompt.name }), () => gateway.getPrompt({ name: exposed.name })], rounds);
  const [directRead, gatewayRead] = await interleave([() => direct.readResource({ uri: resource.uri }), () => gateway.readResource({ uri: resource.uri })], rounds);
  await direct.close();
  await gateway.close();
  const dg = summary(directGet);
  const gg = summary(gatewayGet);
  const dr = summary(directRead);
  const gr = summary(gatewayRead);
  return {
    prompt: prompt.name,
    resource: resource.uri,
    promptsGet: { direct: dg, gateway: gg, ratioP50: round(gg.p50 / dg.p50, 2) },
    resourcesRead: { direct: dr, gateway: gr, ratioP50: round(gr.p50 / dr.p50, 2) },
  };
}

if (import.meta.url === `file://${process.argv[1]}`) console.log(JSON.stringify(await primitivesStdio({ rounds: Number(process.argv[2] ?? 1500) }), null, 2));

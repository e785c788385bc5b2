import { ChannelConfigError } from "../types";

export type AwsCredentials = { accessKeyId: string; secretAccessKey: string; region: string };

/** The channel key `Ak|Sk|Region`; the region is part of a hostname, so only a region name is accepted. */
export function parseAwsKey(key: string): AwsCredentials {
  const parts = key.split("|").map((p) => p.trim());
  const [accessKeyId = "", secretAccessKey = "", region = ""] = parts;
  if (parts.length !== 3 || !accessKeyId || !secretAccessKey || !region)
    throw new ChannelConfigError("AWS Claude 渠道密钥格式应为 Ak|Sk|Region");
  if (!/^[a-z0-9-]+$/.test(region)) throw new ChannelConfigError(`AWS 区域无效：${region}`);
  return { accessKeyId, secretAccessKey, region };
}

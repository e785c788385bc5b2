/**
 * English for the errors the relay's adapters, streams and task pollers produce: channel
 * configuration errors (a malformed key, a missing Base URL, an endpoint the provider does not
 * serve), upstream failures, stream cuts and task timeouts. They reach `/v1` callers, log rows
 * and the channel page, and are read back from the finished Chinese (docs/decisions/045).
 */
export const relayUpstreamMessages: Record<string, string> = {
  // Channel configuration and endpoints a provider does not serve.
  "未设置 Base URL": "No Base URL set",
  "{{provider}} 渠道不支持此接口（{{path}}）": "{{provider}} channels do not support this endpoint ({{path}})",
  "通义千问渠道不支持 {{path}}": "Qwen (Tongyi) channels do not support {{path}}",
  "百度渠道不支持 {{path}}": "Baidu channels do not support {{path}}",
  "讯飞星火渠道不支持 {{path}}": "iFlytek Spark channels do not support {{path}}",
  "腾讯混元渠道不支持 {{path}}": "Tencent Hunyuan channels do not support {{path}}",
  "智谱 GLM-4 渠道不支持 {{path}}": "Zhipu GLM-4 channels do not support {{path}}",
  "智谱 v3 渠道只支持对话补全": "Zhipu v3 channels support chat completions only",
  "渠道 #{{id}}（AWS Claude）只支持对话": "Channel #{{id}} (AWS Claude) supports chat only",
  "渠道 #{{id}}（PaLM）只支持对话": "Channel #{{id}} (PaLM) supports chat only",
  "渠道 #{{id}}（Vertex AI Claude）只支持对话": "Channel #{{id}} (Vertex AI Claude) supports chat only",
  "渠道 #{{id}}（Gemini）不支持此接口": "Channel #{{id}} (Gemini) does not support this endpoint",
  "渠道 #{{id}} 的 Base URL 应以 ws(s):// 或 http(s):// 开头":
    "The Base URL of channel #{{id}} must start with ws(s):// or http(s)://",
  "渠道 #{{id}} 未设置代理地址": "Channel #{{id}} has no proxy address set",
  "Cloudflare 渠道 #{{id}} 需要在「其他」中填写 Account ID":
    "Cloudflare channel #{{id}} needs its Account ID filled in under “Other”",
  "Gemini API 版本无效：{{version}}": "Invalid Gemini API version: {{version}}",
  "AWS Claude 渠道密钥格式应为 Ak|Sk|Region": "An AWS Claude channel's key must be in the form Ak|Sk|Region",
  "AWS 区域无效：{{region}}": "Invalid AWS region: {{region}}",
  "百度密钥格式错误，应为 APIKey|SecretKey": "Malformed Baidu key, expected APIKey|SecretKey",
  "讯飞星火密钥格式错误，应为 APPID|APISecret|APIKey": "Malformed iFlytek Spark key, expected APPID|APISecret|APIKey",
  "腾讯混元密钥格式错误，应为 AppId|SecretId|SecretKey":
    "Malformed Tencent Hunyuan key, expected AppId|SecretId|SecretKey",
  "智谱密钥格式错误，应为 id.secret": "Malformed Zhipu key, expected id.secret",
  "Vertex AI 渠道密钥不是服务账号 JSON": "The Vertex AI channel's key is not service-account JSON",
  "Vertex AI 服务账号 JSON 缺少 {{fields}}": "The Vertex AI service-account JSON lacks {{fields}}",
  "Vertex AI 服务账号 private_key 不是有效的 PKCS#8 RSA 私钥":
    "The Vertex AI service account's private_key is not a valid PKCS#8 RSA private key",
  "Vertex AI 部署地区 JSON 无效": "The Vertex AI deployment regions JSON is invalid",
  "Vertex AI 部署地区无效：{{region}}": "Invalid Vertex AI deployment region: {{region}}",
  // Upstream failures, when the upstream gave no words of its own.
  "获取 Vertex AI 访问令牌失败：{{why}}": "Getting a Vertex AI access token failed: {{why}}",
  "百度 access_token 获取失败（{{status}}）": "Getting the Baidu access_token failed ({{status}})",
  "百度接口错误 {{code}}": "Baidu API error {{code}}",
  "讯飞星火错误 {{code}}": "iFlytek Spark error {{code}}",
  通义千问流式响应出错: "The Qwen (Tongyi) stream reported an error",
  百度流式响应出错: "The Baidu stream reported an error",
  混元流式响应出错: "The Hunyuan stream reported an error",
  智谱流式响应出错: "The Zhipu stream reported an error",
  讯飞星火在回复结束前关闭了连接: "iFlytek Spark closed the connection before the reply was finished",
  讯飞星火在回复前关闭了连接: "iFlytek Spark closed the connection before replying",
  "通义万相未返回任务 ID": "Tongyi Wanxiang returned no task ID",
  "任务 {{taskId}} 失败": "Task {{taskId}} failed",
  "任务 {{taskId}} 未在限定时间内完成": "Task {{taskId}} did not finish within the time limit",
  // A stream cut short.
  "上游连接在回复中途断开，回复不完整": "The upstream connection broke off mid-reply; the reply is incomplete",
  "上游在回复结束前关闭了流式响应，回复不完整":
    "The upstream closed the stream before the reply was finished; the reply is incomplete",
  "上游流式响应超时（{{seconds}} 秒无数据）": "The upstream stream timed out (no data for {{seconds}} s)",
  // Midjourney and Suno tasks: submissions, callbacks, polls and the image proxy.
  "请求体必须是 JSON 对象": "The request body must be a JSON object",
  "invalid_request: 请求体必须是 JSON 对象": "invalid_request: The request body must be a JSON object",
  "invalid_request: 缺少任务 id": "invalid_request: The task id is missing",
  "continue_clip_id 需要有效的 task_id": "continue_clip_id needs a valid task_id",
  原任务的渠道已不存在: "The original task's channel no longer exists",
  原任务的渠道已被禁用: "The original task's channel is disabled",
  渠道已不存在: "The channel no longer exists",
  上游请求失败: "The upstream request failed",
  "上游返回 HTTP {{status}}": "The upstream answered HTTP {{status}}",
  "上游返回了无法解析的回复（HTTP {{status}}）":
    "The upstream returned a reply that could not be parsed (HTTP {{status}})",
  "提交失败（code {{code}}）": "Submission failed (code {{code}})",
  无效的回调签名: "Invalid callback signature",
  "任务 ID 为空": "The task ID is empty",
  // The poller's timeout, in whichever unit divides the configured limit.
  "上游任务超时（超过{{hours}}小时）": "The upstream task timed out (over {{hours}} h)",
  "上游任务超时（超过{{minutes}}分钟）": "The upstream task timed out (over {{minutes}} min)",
  "上游任务超时（超过{{seconds}}秒）": "The upstream task timed out (over {{seconds}} s)",
  图片转发未开启: "Image forwarding is not enabled",
  图片不存在: "The image does not exist",
  图片地址无效: "The image address is invalid",
  图片地址不被允许: "The image address is not allowed",
  "图片上游返回 HTTP {{status}}": "The image upstream answered HTTP {{status}}",
  图片过大: "The image is too large",
  图片读取失败: "Reading the image failed",
  图片请求超时: "The image request timed out",
  "图片请求失败：{{reason}}": "The image request failed: {{reason}}",
};

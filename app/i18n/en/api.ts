/** English for the /api envelope's own refusals, edge parsing, and the route-level notices. */
export const apiMessages: Record<string, string> = {
  "服务器内部错误，请联系管理员": "Internal server error, please contact the administrator",
  请求体过大: "The request body is too large",
  "无效的参数：请求体不是合法的 JSON": "Invalid parameter: the request body is not valid JSON",
  "无效的参数：{{detail}}": "Invalid parameter: {{detail}}",
  无效的参数: "Invalid parameter",
  格式错误: "malformed",
  "无权进行此操作，请刷新页面或清空缓存后重试":
    "You are not allowed to do this; please refresh the page or clear the cache and try again",
  "无权进行此操作，New-Api-User 与登录用户不匹配，请重新登录":
    "You are not allowed to do this: New-Api-User does not match the signed-in user, please sign in again",
  "无权进行此操作，未登录且未提供 access token":
    "You are not allowed to do this: not signed in and no access token given",
  "无权进行此操作，access token 无效": "You are not allowed to do this: the access token is invalid",
  未知的操作: "Unknown action",
  未知操作: "Unknown action",
  接口不存在: "No such endpoint",
  方法不允许: "Method not allowed",
  数据库不可用: "The database is unavailable",
  "拒绝跨站请求：请在本站页面上操作": "Cross-site request refused: please use this site's own pages",
  "无效的参数：id 必须是 1 到 2147483647 之间的整数":
    "Invalid parameter: id must be a whole number from 1 to 2147483647",
  "无效的参数：文本中不能包含 NUL 字符": "Invalid parameter: text cannot contain the NUL character",
  "无效的参数：JSON 嵌套层数过深": "Invalid parameter: the JSON is nested too deeply",
  "无效的请求路径：不能包含 NUL 字符": "Invalid request path: it cannot contain the NUL character",
  "不支持 ?_data= 请求：本站的数据请求使用 .data 地址":
    "?_data= requests are not supported: this site's data requests use .data addresses",
  无效的表单数据: "Invalid form data",
  "无效的地址：{{address}}": "Invalid address: {{address}}",
  "不支持的协议：{{protocol}}": "Unsupported protocol: {{protocol}}",
  "回复过大（超过 {{bytes}} 字节）": "The reply is too large (over {{bytes}} bytes)",
  "请求超时（{{ms}} ms）": "The request timed out ({{ms}} ms)",
  "代理地址不能是链路本地或云元数据地址（169.254.0.0/16、fe80::/10、fd00:ec2::254、100.100.100.200）":
    "The proxy address cannot be a link-local or cloud-metadata address (169.254.0.0/16, fe80::/10, fd00:ec2::254, 100.100.100.200)",
  // With the address that was refused, as the SSRF guard reports it.
  "代理地址不能是链路本地或云元数据地址（169.254.0.0/16、fe80::/10、fd00:ec2::254、100.100.100.200）：{{address}}":
    "The proxy address cannot be a link-local or cloud-metadata address (169.254.0.0/16, fe80::/10, fd00:ec2::254, 100.100.100.200): {{address}}",
  "代理地址不能是带区域标识（%）的 IPv6 地址（如 fe80::1%eth0）":
    "The proxy address cannot be an IPv6 address with a zone (%) such as fe80::1%eth0",
  // Route-level notices (loaders and actions).
  "请先选择要删除的通道！": "Please select the channels to delete first!",
  渠道复制成功: "Channel copied",
  "请指定密钥序号 key_index": "Please give the key's index key_index",
  "已成功开始测试所有通道，请刷新页面查看结果。":
    "Testing all channels has started; refresh the page to see the results.",
  "已更新 {{count}} 个渠道的余额": "Balances of {{count}} channels updated",
  "target_timestamp 必须是 Unix 时间戳（秒）": "target_timestamp must be a Unix timestamp (seconds)",
  "已删除 {{count}} 个通道！": "{{count}} channels deleted!",
  "已删除所有禁用渠道，共计 {{count}} 个": "All disabled channels deleted, {{count}} in total",
  "已修复 {{count}} 个通道！": "{{count}} channels repaired!",
  "渠道 {{name}} 测试成功，耗时 {{seconds}} 秒。": "Channel {{name}} tested fine in {{seconds}} s.",
  "渠道 {{name}} 测试失败：{{reason}}": "Testing channel {{name}} failed: {{reason}}",
  余额更新已在运行中: "A balance update is already running",
  "已开始更新所有通道余额，请刷新页面查看进度。":
    "Updating all channel balances has started; refresh the page to follow it.",
  "渠道 {{name}} 余额更新成功": "Balance of channel {{name}} updated",
  "用户 {{name}} 不存在": "User {{name}} does not exist",
  "暂不支持使用 access token": "Access tokens are not supported here yet",
  "请至少选择一个令牌！": "Please select at least one token!",
  "令牌创建成功，共创建 {{count}} 个令牌": "Tokens created: {{count}} in all",
  "令牌更新成功！": "Token updated!",
  "{{prefix}}成功兑换额度：{{amount}}": "{{prefix}} Quota redeemed: {{amount}}",
};

import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { useActionData, useLoaderData } from "@remix-run/react";
import { ChannelForm } from "~/components/channels/ChannelForm";
import { channelDefaults, channelFormContext, handleChannelForm } from "~/domain/channels/channel-form.server";
import { channelConsoleSchema } from "~/domain/channels/channel-console-form";
import { getChannel } from "~/domain/channels/channels.server";
import { ROLE_ADMIN } from "~/domain/users/roles";
import { formModelLister } from "~/relay/channel-form-models.server";
import { formConstraint } from "~/web/form-constraint.server";
import { requireRole } from "~/web/guards.server";
import { requirePathId } from "~/utils/edge-input";

export const meta: MetaFunction = () => [{ title: "更新渠道信息" }];

export async function loader({ request, params }: LoaderFunctionArgs) {
  await requireRole(request, ROLE_ADMIN);
  const channel = await getChannel(requirePathId(params.id));
  if (!channel) throw new Response("Not Found", { status: 404 });
  return { ...channelFormContext(), defaults: channelDefaults(channel), constraint: formConstraint(channelConsoleSchema) };
}

export async function action({ request, params }: ActionFunctionArgs) {
  await requireRole(request, ROLE_ADMIN);
  const id = requirePathId(params.id);
  return handleChannelForm(request, "edit", id, formModelLister(id));
}

export default function EditChannelPage() {
  const { defaults, ...context } = useLoaderData<typeof loader>();
  const lastResult = useActionData<typeof action>();
  return <ChannelForm mode="edit" lastResult={lastResult as never} defaultValue={defaults} notice="密钥留空则保持原密钥不变" {...context} />;
}

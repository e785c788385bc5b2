import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { useActionData, useLoaderData } from "@remix-run/react";
import { ChannelForm } from "~/components/channels/ChannelForm";
import { ChannelKeyTable } from "~/components/channels/ChannelKeyTable";
import { channelDefaults, channelFormContext, handleChannelForm } from "~/web/channels/channel-form.server";
import { channelConsoleSchema } from "~/domain/channels/channel-console-form";
import { channelKeyTable } from "~/domain/channels/channel-key-manage.server";
import { getChannel } from "~/domain/channels/channel-queries.server";
import { ROLE_ADMIN } from "~/domain/users/roles";
import { formModelLister } from "~/relay/channel-form-models.server";
import { formConstraint } from "~/web/form-constraint.server";
import { requireRole } from "~/web/guards.server";
import { requirePathId } from "~/utils/edge-input";
import { pageTitle } from "~/components/i18n/locale-context";

export const meta: MetaFunction = ({ matches }) => pageTitle(matches, "更新渠道信息");

export async function loader({ request, params }: LoaderFunctionArgs) {
  await requireRole(request, ROLE_ADMIN);
  const channel = await getChannel(requirePathId(params.id));
  if (!channel) throw new Response("Not Found", { status: 404 });
  // Only hints of the keys reach the page: the key text is opened here and never sent.
  const keys = channelKeyTable(channel);
  return {
    ...channelFormContext(),
    defaults: channelDefaults(channel),
    constraint: formConstraint(channelConsoleSchema),
    multiKey: keys.length > 0,
    keys,
  };
}

export async function action({ request, params }: ActionFunctionArgs) {
  await requireRole(request, ROLE_ADMIN);
  const id = requirePathId(params.id);
  return handleChannelForm(request, "edit", id, formModelLister(id));
}

export default function EditChannelPage() {
  const { defaults, keys, multiKey, ...context } = useLoaderData<typeof loader>();
  const lastResult = useActionData<typeof action>();
  // Chinese here; the form shows it in the reader's language.
  const notice = multiKey
    ? "密钥留空则保持原密钥不变；填写新密钥（每行一个）会替换全部密钥，并将它们全部恢复为已启用"
    : "密钥留空则保持原密钥不变";
  return (
    <div className="flex flex-col gap-4">
      <ChannelForm
        mode="edit"
        lastResult={lastResult as never}
        defaultValue={defaults}
        notice={notice}
        multiKey={multiKey}
        {...context}
      />
      {multiKey ? <ChannelKeyTable keys={keys} /> : null}
    </div>
  );
}

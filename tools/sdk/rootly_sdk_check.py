"""
Drives the hosted API's Python SDK (PyPI `rootly`, module `rootly_sdk`) against a running Taproot
and writes a JSON report of every call it made (to stdout, or to --report).

    python rootly_sdk_check.py --base-url http://127.0.0.1:3000 --token <key> [--spare-user-id <id>] [--webhook-delivery <id>] [--report <file>]

Each served operation (GET /v1/openapi.json) is matched to the SDK's call with the same method and
path, so the served operationIds need not be the reference's. The scenario creates first (bodies
built with the SDK's own models, so its serialization is exercised), then reads, lists, updates and
acts on what it created, and deletes last. Every call is recorded: operation, HTTP status, the
model the SDK parsed the answer into, and the error when the SDK could not parse it. The client
raises on a status the SDK does not document, so a parsed answer of None means the SDK declares no
body for that status. `--spare-user-id` names a user the scenario may delete (the API cannot create
one); `--verify-email=ID:TOKEN` an e-mail address and the verification token its mail would carry
(minted outside the API, as the mailer does); `--webhook-delivery` a webhook delivery to read and
redeliver (the dispatcher writes deliveries, no API creates one).
"""

from __future__ import annotations

import argparse
import hashlib
import importlib
import inspect
import json
import pkgutil
import re
import sys
import traceback
import types
import uuid
from datetime import datetime, timedelta, timezone
from typing import Any

import httpx
import rootly_sdk.api
from rootly_sdk import AuthenticatedClient, models
from rootly_sdk.types import UNSET, Unset

METHODS = ("get", "post", "put", "patch", "delete")


def route_key(method: str, path: str) -> tuple[str, str]:
    """A route without its parameters' names: the SDK names some of them differently."""
    return method.lower(), re.sub(r"\{[^}]*\}", "{}", path)


def sdk_calls() -> dict[tuple[str, str], types.ModuleType]:
    """Every SDK call module by route, read from the request each one builds."""
    calls = {}
    for tag in pkgutil.iter_modules(rootly_sdk.api.__path__):
        package = importlib.import_module(f"rootly_sdk.api.{tag.name}")
        for op in pkgutil.iter_modules(package.__path__):
            module = importlib.import_module(f"rootly_sdk.api.{tag.name}.{op.name}")
            source = inspect.getsource(module._get_kwargs)
            method = re.search(r'"method": "(\w+)"', source)
            url = re.search(r'"url": "([^"]+)"', source)
            if method and url:
                calls[route_key(method.group(1), url.group(1))] = module
    return calls


class NotRun(Exception):
    """A call whose inputs an earlier failed call should have produced."""


class Check:
    def __init__(self, base_url: str, token: str):
        self.base_url = base_url
        # The status of the last answer, also when the SDK then fails to parse it.
        self.last_status: int | None = None
        # The body of the last answer: the id of what a call the SDK declares without a body created.
        self.last_content: bytes = b""
        self.client = self.client_for(token)
        document = httpx.get(f"{base_url}/v1/openapi.json", headers={"Authorization": f"Bearer {token}"}, timeout=30).json()
        calls = sdk_calls()
        self.served: dict[str, dict[str, Any]] = {}
        for path, item in document["paths"].items():
            for method in METHODS:
                if method in item:
                    module = calls.get(route_key(method, path))
                    self.served[item[method]["operationId"]] = {"method": method.upper(), "path": path, "module": module}
        self.calls: list[dict[str, Any]] = []

    def client_for(self, token: str) -> AuthenticatedClient:
        return AuthenticatedClient(
            base_url=self.base_url,
            token=token,
            raise_on_unexpected_status=True,
            timeout=httpx.Timeout(30.0),
            httpx_args={"event_hooks": {"response": [self._seen]}},
        )

    def _seen(self, response: httpx.Response) -> None:
        self.last_status = response.status_code

    def call(self, operation: str, body: dict[str, Any] | None = None, *, model: str | None = None, as_token: Any = UNSET, **params: Any) -> Any:
        """
        Calls the SDK's `sync_detailed` for a served operation and records the outcome; answers the
        parsed model (None when the call failed). `body` is the request document, turned into the
        SDK's body model (`model`, or the one its signature names) with `from_dict`; `as_token`
        calls with another key than the check's.
        """
        served = self.served.get(operation)
        if served is None:
            raise KeyError(f"{operation} is not served")
        module = served["module"]
        record: dict[str, Any] = {"operation": operation, "route": f"{served['method']} {served['path']}"}
        self.calls.append(record)
        if module is None:
            record.update(error="the SDK has no call for this route")
            return None
        record["sdk"] = module.__name__.removeprefix("rootly_sdk.api.")
        self.last_status = None
        self.last_content = b""
        try:
            missing = [name for name, value in {**params, "token": as_token}.items() if value is None]
            if missing:
                raise NotRun(f"no {', '.join(missing)}: an earlier call failed")
            if body is not None:
                params["body"] = self._body_model(module, model).from_dict(body)
            client = self.client if as_token is UNSET else self.client_for(as_token)
            response = module.sync_detailed(client=client, **params)
        except NotRun as reason:
            record.update(status=None, error=f"not run: {reason}")
            return None
        except Exception as error:  # the SDK raises whatever its parsing meets
            record.update(status=self.last_status, error=f"{type(error).__name__}: {error}", trace=short_trace(error))
            return None
        parsed = response.parsed
        self.last_content = response.content
        record.update(status=int(response.status_code), parsed=type(parsed).__name__ if parsed is not None else None)
        if not 200 <= response.status_code < 300:
            record["error"] = f"answered {int(response.status_code)}: {response.content.decode(errors='replace')[:500]}"
            return None
        return parsed

    @staticmethod
    def _body_model(module: types.ModuleType, name: str | None) -> Any:
        if name:
            return getattr(models, name)
        annotation = inspect.signature(module.sync_detailed).parameters["body"].annotation
        options = [t for t in getattr(annotation, "__args__", (annotation,)) if t is not Unset]
        if len(options) != 1:
            raise TypeError(f"{module.__name__}: name one of {[t.__name__ for t in options]} as the body model")
        return options[0]

    def report(self) -> dict[str, Any]:
        called = {c["operation"] for c in self.calls}
        return {
            "served": len(self.served),
            "calls": self.calls,
            "not_exercised": [
                {
                    "operation": op,
                    "route": f"{s['method']} {s['path']}",
                    "reason": "the SDK has no call for this route" if s["module"] is None else "the scenario does not call it",
                }
                for op, s in self.served.items()
                if op not in called
            ],
        }


def short_trace(error: BaseException) -> str:
    """Where in the SDK the error was raised: the last frames, enough to name the model and field."""
    frames = traceback.extract_tb(error.__traceback__)[-3:]
    return " <- ".join(f"{f.name} ({f.filename.split('rootly_sdk/')[-1]}:{f.lineno}): {f.line}" for f in reversed(frames))


def ident(parsed: Any) -> str | None:
    """The id of a parsed single-resource answer."""
    data = getattr(parsed, "data", None)
    return getattr(data, "id", None) if data is not None else None


def created_id(c: Check, parsed: Any) -> str | None:
    """The id of what the last call created, read from its answer when the SDK declares it without a body."""
    if parsed is not None or not c.last_content:
        return ident(parsed)
    try:
        return json.loads(c.last_content)["data"]["id"]
    except (ValueError, KeyError, TypeError):
        return None


def plain_create(c: Check, path: str, body: dict[str, Any]) -> str | None:
    """Creates with plain HTTP what the SDK cannot describe; answers the id, or None."""
    answer = c.client.get_httpx_client().post(path, content=json.dumps(body), headers={"Content-Type": "application/vnd.api+json"})
    if answer.status_code != 201:
        print(f"{path}: {answer.status_code} {answer.text[:300]}", file=sys.stderr)
        return None
    return answer.json()["data"]["id"]


def doc(type_: str, **attributes: Any) -> dict[str, Any]:
    return {"data": {"type": type_, "attributes": attributes}}


def iso(delta: timedelta = timedelta()) -> str:
    return (datetime.now(timezone.utc) + delta).isoformat()


def scenario(c: Check, spare_user_id: str | None, verify_email: list[str] | None = None, webhook_delivery: str | None = None) -> None:
    run = uuid.uuid4().hex[:8]

    user = ident(c.call("getCurrentUser"))

    # Creates.
    role = ident(c.call("createRole", doc("roles", name=f"SDK role {run}")))
    on_call_role = ident(c.call("createOnCallRole", doc("on_call_roles", name=f"SDK on-call role {run}")))
    created_key = c.call("createApiKey", doc("api_keys", name=f"SDK key {run}", kind="organization", expires_at=iso(timedelta(days=30))))
    api_key = ident(created_key)
    team = ident(c.call("createGroup", doc("groups", name=f"SDK team {run}", color="#047BF8")))
    severity = ident(c.call("createSeverity", doc("severities", name=f"SDK sev {run}", severity="high", color="#FF0000")))
    service = ident(c.call("createService", doc("services", name=f"SDK service {run}", public_description="Payments")))
    environment = ident(c.call("createEnvironment", doc("environments", name=f"SDK env {run}")))
    functionality = ident(c.call("createFunctionality", doc("functionalities", name=f"SDK functionality {run}")))
    # A status page showing the service and functionality, and what goes on it.
    status_page = ident(c.call("createStatusPage", doc("status_pages", title=f"SDK status page {run}", public=True, service_ids=[service], functionality_ids=[functionality])))
    # The SDK types this body as the bare template (StatusPageTemplate); the hosted API takes the document.
    template = ident(
        c.call(
            "createStatusPageTemplate",
            doc("status_page_templates", title="Investigating", body="We are looking into slow checkouts", update_status="investigating"),
            model="NewStatusPageTemplate",
            status_page_id=status_page,
        )
    )
    component_group = ident(c.call("createStatusPageComponentGroup", doc("status_page_component_groups", name=f"SDK component group {run}"), status_page_id=status_page))
    component = ident(
        c.call("createStatusPageComponent", doc("status_page_components", name=f"SDK component {run}", status_page_component_group_id=component_group), status_page_id=status_page)
    )
    announcement = ident(c.call("createStatusPageAnnouncement", doc("status_page_announcements", title="Planned upgrade", body="Checkout is read-only for ten minutes"), status_page_id=status_page))
    page_team = ident(c.call("createStatusPageTeam", doc("status_page_groups", group_id=team), status_page_id=status_page))
    cause = ident(c.call("createCause", doc("causes", name=f"SDK cause {run}")))
    incident_type = ident(c.call("createIncidentType", doc("incident_types", name=f"SDK type {run}")))
    sub_status = ident(c.call("createSubStatus", doc("sub_statuses", name=f"SDK sub-status {run}", parent_status="started")))
    incident_role = ident(c.call("createIncidentRole", doc("incident_roles", name=f"SDK incident role {run}")))
    role_task = ident(c.call("createIncidentRoleTask", doc("incident_role_tasks", task="Page the owner"), incident_role_id=incident_role))
    urgency = ident(c.call("createAlertUrgency", doc("alert_urgencies", name=f"SDK urgency {run}", description="Wake someone")))
    alert_field = ident(c.call("createAlertField", doc("alert_fields", name=f"SDK field {run}")))
    # Alert groups (docs/alert-groups.md): the whole life of one here, so it needs nothing created later.
    by_host = [{"property_field_type": "payload", "property_field_name": "$.host", "property_field_condition_type": "matches_existing_alert"}]
    alert_group = ident(c.call("createAlertGroup", doc("alert_groups", name=f"SDK alert group {run}", time_window=10, conditions=by_host, targets=[{"target_type": "Group", "target_id": team}])))
    c.call("listAlertGroups")
    c.call("getAlertGroup", id=alert_group)
    c.call("updateAlertGroup", doc("alert_groups", description="Storms by host", attributes=[{"json_path": "$.service"}]), id=alert_group)
    c.call("deleteAlertGroup", id=alert_group)
    catalogs(c, run)
    source = ident(c.call("createAlertsSource", doc("alert_sources", name=f"SDK source {run}", source_type="alertmanager")))
    heartbeat = ident(
        c.call(
            "createHeartbeat",
            doc("heartbeats", name=f"SDK heartbeat {run}", alert_summary="Backups stopped", interval=30, interval_unit="minutes", notification_target_id=team, notification_target_type="Group"),
        )
    )
    payments = {"property_field_type": "payload", "property_field_name": "$.team", "property_field_condition_type": "is_one_of", "property_field_values": ["payments"]}
    alert_route = ident(
        c.call(
            "createAlertRoute",
            doc(
                "alert_routes",
                name=f"SDK route {run}",
                alerts_source_ids=[source],
                rules=[{"name": "Payments", "position": 1, "destinations": [{"target_type": "Service", "target_id": service}], "condition_groups": [{"position": 1, "conditions": [payments]}]}],
            ),
        )
    )
    routing_rule = ident(
        c.call(
            "createAlertRoutingRule",
            doc("alert_routing_rules", name=f"SDK routing rule {run}", alerts_source_id=source, destination={"target_type": "Group", "target_id": team}, conditions=[payments]),
        )
    )
    incident = ident(
        c.call(
            "createIncident",
            doc("incidents", title=f"SDK incident {run}", summary="Checkout fails", severity_id=severity, service_ids=[service], environment_ids=[environment]),
        )
    )
    duplicate = ident(c.call("createIncident", doc("incidents", title=f"SDK duplicate {run}")))
    child = ident(c.call("createIncident", doc("incidents", title=f"SDK child {run}", parent_incident_id=incident)))
    triaged = ident(c.call("createIncident", doc("incidents", title=f"SDK triage {run}")))
    event = ident(c.call("createIncidentEvent", doc("incident_events", event="Rolled back", visibility="internal"), incident_id=incident))
    # Assigned: SDK 3.0.1 cannot parse an action item whose assigned_to is null (README.md).
    action_item = ident(
        c.call(
            "createIncidentActionItem",
            doc("incident_action_items", summary="Add a canary", priority="high", assigned_to_user_id=int(user) if user else None),
            incident_id=incident,
        )
    )
    incident_sub_status = ident(
        c.call("createIncidentSubStatus", doc("incident_sub_statuses", sub_status_id=sub_status, assigned_at=iso()), incident_id=incident)
    )
    status_page_event = ident(
        c.call("createIncidentStatusPage", doc("incident_status_page_events", event="Investigating slow checkouts", status_page_id=status_page), incident_id=incident)
    )
    event_service = ident(
        c.call("createIncidentEventService", doc("incident_event_services", incident_event_id=event, service_id=service, status="partial_outage"), incident_event_id=event)
    )
    event_functionality = ident(
        c.call(
            "createIncidentEventFunctionality",
            doc("incident_event_functionalities", incident_event_id=event, functionality_id=functionality, status="major_outage"),
            incident_event_id=event,
        )
    )
    schedule = ident(
        c.call(
            "createSchedule",
            doc("schedules", name=f"SDK schedule {run}", owner_user_id=int(user) if user else None, owner_group_ids=[team], slack_channel={"id": "C01", "name": "oncall"}, shift_report_enabled=True),
        )
    )
    escalation_policy = ident(
        c.call(
            "createEscalationPolicy",
            doc(
                "escalation_policies",
                name=f"SDK escalation policy {run}",
                repeat_count=1,
                group_ids=[team],
                service_ids=[service],
                business_hours={"days": ["M", "T"], "start_time": "09:00", "end_time": "17:00", "time_zone": "Europe/Paris"},
            ),
        )
    )
    escalation_path = ident(
        c.call(
            "createEscalationPath",
            doc(
                "escalation_paths",
                name=f"SDK escalation path {run}",
                match_mode="match-any-rule",
                initial_delay=5,
                rules=[{"rule_type": "service", "service_ids": [service]}],
                time_restrictions=[{"start_day": "monday", "start_time": "09:00", "end_day": "friday", "end_time": "17:00"}],
                time_restriction_time_zone="Europe/Paris",
            ),
            escalation_policy_id=escalation_policy,
        )
    )
    escalation_level = ident(
        c.call(
            "createEscalationLevel",
            doc(
                "escalation_levels",
                position=1,
                delay=5,
                escalation_policy_path_id=escalation_path,
                notification_target_params=[{"id": team, "type": "team", "team_members": "admins"}, {"id": "C06Q2JK7RQW", "type": "slack_channel"}],
                paging_strategy_configuration_strategy="cycle",
            ),
            escalation_policy_id=escalation_policy,
        )
    )
    # Daily: SDK 3.0.1 serializes every handoff as the daily shape (README.md).
    rotation = ident(
        c.call(
            "createScheduleRotation",
            doc(
                "schedule_rotations",
                name=f"SDK rotation {run}",
                schedule_rotationable_type="ScheduleDailyRotation",
                schedule_rotationable_attributes={"handoff_time": "09:00"},
                time_zone="Europe/Paris",
                active_time_type="same_time",
                active_time_attributes=[{"start_time": "09:00", "end_time": "17:00"}],
            ),
            schedule_id=schedule,
        )
    )
    rotation_user = ident(c.call("createScheduleRotationUser", doc("schedule_rotation_users", user_id=int(user) if user else None), schedule_rotation_id=rotation))
    active_day = ident(
        c.call("createScheduleRotationActiveDay", doc("schedule_rotation_active_days", day_name="M", active_time_attributes=[{"start_time": "09:00", "end_time": "12:00"}]), schedule_rotation_id=rotation)
    )
    override = ident(c.call("createOverrideShift", doc("shifts", user_id=int(user) if user else None, starts_at=iso(timedelta(days=1)), ends_at=iso(timedelta(days=1, hours=8))), schedule_id=schedule))
    shadow = ident(
        c.call(
            "createOnCallShadow",
            doc("on_call_shadows", shadowable_type="User", shadowable_id=user, shadow_user_id=int(user) if user else None, starts_at=iso(timedelta(days=2)), ends_at=iso(timedelta(days=3))),
            schedule_id=schedule,
        )
    )
    # Coverage of the member's shifts on a day ahead (its rotation's version is in force from now): one request per shift, answered as a list.
    coverage = c.call(
        "createShiftCoverageRequest",
        doc("shift_coverage_requests", starts_at=iso(timedelta(days=5)), ends_at=iso(timedelta(days=6)), user_id=int(user) if user else None),
        schedule_id=schedule,
    )
    coverage_request = coverage.data[0].id if coverage is not None and coverage.data else None
    alert = ident(c.call("createAlert", doc("alerts", summary=f"SDK alert {run}", source="api", noise="not_noise")))
    second_alert = ident(c.call("createAlert", doc("alerts", summary=f"SDK alert two {run}", source="api")))
    alert_event = ident(c.call("createAlertEvent", doc("alert_events", kind="note", details="Looked at it"), alert_id=alert))
    email_address = ident(c.call("createUserEmailAddress", doc("user_email_addresses", email=f"sdk-{run}@example.test"), user_id=user))
    phone_number = ident(c.call("createUserPhoneNumber", doc("user_phone_numbers", phone="+14155550100"), user_id=user))
    notification_rule = ident(
        c.call(
            "createUserNotificationRule",
            doc("user_notification_rules", enabled_contact_types=["email", "sms"], delay=0, user_email_address_id=email_address, user_sms_number_id=phone_number),
            user_id=user,
        )
    )
    # Outgoing webhooks: a secret a custom header of the endpoint names.
    secret_name = f"SDK_TOKEN_{run}"
    secret = ident(c.call("createSecret", doc("secrets", name=secret_name, secret="receiver-token", kind="built_in")))
    webhooks_endpoint = ident(
        c.call(
            "createWebhooksEndpoint",
            doc(
                "webhooks_endpoints",
                name=f"SDK endpoint {run}",
                url="https://receiver.example.test/rootly",
                event_types=["incident.created", "alert.created"],
                custom_headers=[{"name": "Authorization", "value": f"Bearer {{{{ secrets.{secret_name} }}}}"}],
            ),
        )
    )
    # A custom domain's DNS challenge (its verification is Taproot's own action, not the SDK's).
    verified_domain = ident(c.call("createVerifiedDomain", doc("verified_domains", domain=f"sdk-{run}.example.test")))
    for operation, type_ in (
        ("bulkUpsertGroups", "teams"),
        ("bulkUpsertServices", "services"),
        ("bulkUpsertEnvironments", "environments"),
        ("bulkUpsertFunctionalities", "functionalities"),
    ):
        c.call(operation, {"entities": [{"external_id": f"sdk-{type_}-{run}", "name": f"SDK bulk {type_} {run}"}]})

    # Reads and updates.
    c.call("listUsers")
    c.call("getUser", id=user)
    c.call("updateUser", doc("users", first_name="Sam"), id=user)
    c.call("listAudits")
    c.call("getUserEmailAddresses", user_id=user)
    c.call("showUserEmailAddress", id=email_address)
    c.call("updateUserEmailAddress", doc("user_email_addresses", email=f"sdk-{run}-renamed@example.test"), id=email_address)
    c.call("resendUserEmailAddressVerification", id=email_address)
    if verify_email:
        c.call("verifyUserEmailAddress", id=verify_email[0], token=verify_email[1])
    c.call("getUserPhoneNumbers", user_id=user)
    c.call("showUserPhoneNumber", id=phone_number)
    c.call("updateUserPhoneNumber", doc("user_phone_numbers", phone="+442071838750"), id=phone_number)
    c.call("listUserNotificationRules", user_id=user)
    c.call("getUserNotificationRule", id=notification_rule)
    c.call("updateUserNotificationRule", doc("user_notification_rules", delay=5), id=notification_rule)
    for list_op, get_op, update_op, id_, type_, attributes in (
        ("listRoles", "getRole", "updateRole", role, "roles", {"name": f"SDK role {run} renamed"}),
        ("listOnCallRoles", "getOnCallRole", "updateOnCallRole", on_call_role, "on_call_roles", {"name": f"SDK on-call role {run} renamed"}),
        ("listApiKeys", "getApiKey", "updateApiKey", api_key, "api_keys", {"name": f"SDK key {run} renamed"}),
        ("listGroups", "getGroup", "updateGroup", team, "groups", {"description": "Owns checkout"}),
        ("listSeverities", "getSeverity", "updateSeverity", severity, "severities", {"description": "Customers notice"}),
        ("listServices", "getService", "updateService", service, "services", {"description": "Takes payments"}),
        ("listEnvironments", "getEnvironment", "updateEnvironment", environment, "environments", {"description": "Live"}),
        ("listFunctionalities", "getFunctionality", "updateFunctionality", functionality, "functionalities", {"description": "Pay"}),
        ("listCauses", "getCause", "updateCause", cause, "causes", {"description": "A bad deploy"}),
        ("listIncidentTypes", "getIncidentType", "updateIncidentType", incident_type, "incident_types", {"description": "Outage"}),
        ("listSubStatuses", "getSubStatus", "updateSubStatus", sub_status, "sub_statuses", {"description": "Waiting on a vendor"}),
        ("listIncidentRoles", "getIncidentRole", "updateIncidentRole", incident_role, "incident_roles", {"summary": "Runs the call"}),
        ("listAlertUrgencies", "getAlertUrgency", "updateAlertUrgency", urgency, "alert_urgencies", {"description": "Page now"}),
        ("listAlertFields", "getAlertField", "updateAlertField", alert_field, "alert_fields", {"name": f"SDK field {run} renamed"}),
        ("listAlertSources", "getAlertsSource", "updateAlertsSource", source, "alert_sources", {"name": f"SDK source {run} renamed"}),
        ("listHeartbeats", "getHeartbeat", "updateHeartbeat", heartbeat, "heartbeats", {"description": "Nightly backup"}),
        ("listAlertRoutes", "getAlertRoute", "updateAlertRoute", alert_route, "alert_routes", {"name": f"SDK route {run} renamed"}),
        ("listAlertRoutingRules", "getAlertRoutingRule", "updateAlertRoutingRule", routing_rule, "alert_routing_rules", {"name": f"SDK routing rule {run} renamed"}),
        ("listIncidents", "getIncident", "updateIncident", incident, "incidents", {"summary": "Checkout fails for some"}),
        ("listAlerts", "getAlert", "updateAlert", alert, "alerts", {"description": "Seen by the SDK"}),
        ("listSchedules", "getSchedule", "updateSchedule", schedule, "schedules", {"description": "Follows the sun", "shift_report_day_of_week": "friday"}),
        ("listEscalationPolicies", "getEscalationPolicy", "updateEscalationPolicy", escalation_policy, "escalation_policies", {"repeat_count": 2, "business_hours": None}),
        # update_secret requires the name; a new value under it (headers name it, so it is not renamed).
        ("listSecrets", "getSecret", "updateSecret", secret, "secrets", {"name": secret_name, "secret": "receiver-token-2"}),
        ("listWebhooksEndpoints", "getWebhooksEndpoint", "updateWebhooksEndpoint", webhooks_endpoint, "webhooks_endpoints", {"name": f"SDK endpoint {run} renamed", "enabled": False}),
        ("listStatusPages", "getStatusPage", "updateStatusPage", status_page, "status_pages", {"description": "Checkout and payments", "show_uptime_last_days": 30}),
    ):
        c.call(list_op)
        c.call(get_op, id=id_)
        c.call(update_op, doc(type_, **attributes), id=id_)
    c.call("listStatusPageTemplates", status_page_id=status_page)
    c.call("getStatusPageTemplate", id=template)
    # The SDK's update model requires title and body.
    c.call("updateStatusPageTemplate", doc("status_page_templates", title="Investigating", body="Checkouts are slow; we are on it"), model="UpdateStatusPageTemplate", id=template)
    statuses = c.call("listStatuses")
    c.call("getStatus", id=statuses.data[0].id if statuses is not None and statuses.data else None)
    c.call("listStatusPageTeams", status_page_id=status_page)
    c.call("getStatusPageTeam", status_page_id=status_page, id=page_team)
    c.call("updateStatusPageTeam", doc("status_page_groups", permission_level="edit_and_publish"), status_page_id=status_page, id=page_team)
    c.call("listVerifiedDomains")
    c.call("getVerifiedDomain", id=verified_domain)
    c.call("patchAlertRoute", doc("alert_routes", enabled=False), id=alert_route)
    c.call("pingHeartbeat", heartbeat_id=heartbeat)
    c.call("listEscalationPaths", escalation_policy_id=escalation_policy)
    c.call("getEscalationPath", id=escalation_path)
    c.call("updateEscalationPath", doc("escalation_paths", name=f"SDK escalation path {run} renamed", notification_type="quiet"), id=escalation_path)
    path_level = ident(
        c.call(
            "createEscalationLevelPaths",
            doc("escalation_levels", position=2, delay=1, notification_target_params=[{"id": str(user), "type": "user"}] if user else []),
            escalation_policy_path_id=escalation_path,
        )
    )
    c.call("listEscalationLevelsPaths", escalation_policy_path_id=escalation_path)
    c.call("listEscalationLevels", escalation_policy_id=escalation_policy)
    c.call("getEscalationLevel", id=escalation_level)
    c.call("updateEscalationLevel", doc("escalation_levels", delay=10, paging_strategy_configuration_schedule_strategy="everyone"), id=escalation_level)
    # A key rotates only itself.
    token = getattr(getattr(getattr(created_key, "data", None), "attributes", None), "token", None)
    c.call("rotateApiKey", doc("api_keys", grace_period_seconds=60), id=api_key, as_token=token)

    for list_op, parent, get_op, update_op, id_, type_, attributes in (
        ("listIncidentRoleTasks", {"incident_role_id": incident_role}, "getIncidentRoleTask", "updateIncidentRoleTask", role_task, "incident_role_tasks", {"description": "Within 5 minutes"}),
        ("listIncidentEvents", {"incident_id": incident}, "getIncidentEvent", "updateIncidentEvent", event, "incident_events", {"event": "Rolled back v42"}),
        ("listIncidentActionItems", {"incident_id": incident}, "getIncidentActionItem", "updateIncidentActionItem", action_item, "incident_action_items", {"status": "in_progress"}),
        ("listIncidentSubStatuses", {"incident_id": incident}, "getIncidentSubStatus", "updateIncidentSubStatus", incident_sub_status, "incident_sub_statuses", {"assigned_at": iso()}),
        ("listStatusPageComponentGroups", {"status_page_id": status_page}, "getStatusPageComponentGroup", "updateStatusPageComponentGroup", component_group, "status_page_component_groups", {"collapsed_by_default": True}),
        ("listStatusPageComponents", {"status_page_id": status_page}, "getStatusPageComponent", "updateStatusPageComponent", component, "status_page_components", {"description": "Card payments"}),
        ("listStatusPageAnnouncements", {"status_page_id": status_page}, "getStatusPageAnnouncement", "updateStatusPageAnnouncement", announcement, "status_page_announcements", {"body": "Checkout is read-only for five minutes"}),
        ("listIncidentStatusPages", {"incident_id": incident}, "getIncidentStatusPages", "updateIncidentStatusPage", status_page_event, "incident_status_page_events", {"status": "identified"}),
        ("listIncidentEventServices", {"incident_event_id": event}, "getIncidentEventService", "updateIncidentEventService", event_service, "incident_event_services", {"status": "operational"}),
        ("listIncidentEventFunctionalities", {"incident_event_id": event}, "getIncidentEventFunctionality", "updateIncidentEventFunctionality", event_functionality, "incident_event_functionalities", {"status": "operational"}),
        ("listAlertEvents", {"alert_id": alert}, "getAlertEvent", "updateAlertEvent", alert_event, "alert_events", {"details": "Looked at it twice"}),
        # update_schedule_rotation requires the type.
        ("listScheduleRotations", {"schedule_id": schedule}, "getScheduleRotation", "updateScheduleRotation", rotation, "schedule_rotations", {"schedule_rotationable_type": "ScheduleDailyRotation", "name": f"SDK rotation {run} renamed"}),
        ("listScheduleRotationUsers", {"schedule_rotation_id": rotation}, "getScheduleRotationUser", "updateScheduleRotationUser", rotation_user, "schedule_rotation_users", {"position": 2}),
        ("listScheduleRotationActiveDays", {"schedule_rotation_id": rotation}, "getScheduleRotationActiveDay", "updateScheduleRotationActiveDay", active_day, "schedule_rotation_active_days", {"day_name": "T"}),
        ("listOverrideShifts", {"schedule_id": schedule}, "getOverrideShift", "updateOverrideShift", override, "shifts", {"user_id": int(user) if user else None}),
        ("listOnCallShadows", {"schedule_id": schedule}, "getOnCallShadow", "updateOnCallShadow", shadow, "on_call_shadows", {"ends_at": iso(timedelta(days=4))}),
    ):
        c.call(list_op, **parent)
        c.call(get_op, id=id_)
        c.call(update_op, doc(type_, **attributes), id=id_)
    # Shifts the schedule engine computes from the rotation, its member and the override.
    week = {"from_": iso(), "to": iso(timedelta(days=7))}
    c.call("listShifts", **week, include="user", schedule_ids=[schedule], user_ids=[int(user)] if user else None, pagesize=50)
    c.call("getScheduleShifts", id=schedule, **week)
    # Who is on call for the policy, its levels' targets resolved (schedules through their shifts).
    c.call("listOncalls", include="user", since=iso(), until=iso(timedelta(days=7)), time_zone="Europe/London", filterescalation_policy_ids=escalation_policy)
    c.call("listShiftCoverageRequests", schedule_id=schedule)
    c.call("getShiftCoverageRequest", id=coverage_request)
    # A delivery the test seeded (its endpoint's own): read, listed under its endpoint, redelivered.
    delivery = c.call("getWebhooksDelivery", id=webhook_delivery) if webhook_delivery else None
    delivery_endpoint = getattr(getattr(getattr(delivery, "data", None), "attributes", None), "endpoint_id", None)
    c.call("listWebhooksDeliveries", endpoint_id=delivery_endpoint)
    c.call("deliverWebhooksDelivery", id=webhook_delivery)
    c.call("listAllIncidentActionItems")
    c.call("listAllAlertEvents")

    # The incident's own tasks.
    c.call("addSubscribersToIncident", doc("incidents", user_ids=[user]), id=incident)
    c.call("removeSubscribersToIncident", doc("incidents", user_ids=[user]), id=incident)
    c.call("assignUserToIncident", doc("incidents", incident_role_id=incident_role, user_id=user), id=incident)
    c.call("removeAssignedUserFromIncident", doc("incidents", incident_role_id=incident_role, user_id=user), id=incident)
    c.call("attachAlert", doc("alerts", alert_ids=[second_alert]), incident_id=incident)
    c.call("listIncidentAlerts", incident_id=incident)
    # The SDK types this body as ResolveIncident (the reference's), which cannot carry the duplicate's id.
    c.call("markAsDuplicateIncident", doc("incidents", duplicate_incident_id=incident), model="DuplicateIncident", id=duplicate)
    c.call("unmarkAsDuplicateIncident", id=duplicate)
    c.call("detachFromParentIncident", id=child)
    c.call("mitigateIncident", doc("incidents", mitigation_message="Rolled back"), id=incident)
    c.call("resolveIncident", doc("incidents", resolution_message="Fixed"), id=incident)
    c.call("restartIncident", doc("incidents"), id=incident)
    c.call("triageIncident", doc("incidents"), id=triaged)
    c.call("cancelIncident", doc("incidents", cancellation_message="A false alarm"), id=triaged)

    # The alert's own tasks.
    # Acknowledging and snoozing need an alert that pages someone: escalating pages the policy's first level.
    c.call("escalateAlert", doc("alerts", escalation_policy_id=escalation_policy, escalation_policy_level=1), id=alert)
    c.call("acknowledgeAlert", doc("alerts"), id=alert)
    c.call("snoozeAlert", doc("alerts", delay_minutes=10), id=alert)
    c.call("resolveAlert", doc("alerts", resolution_message="Quiet again", resolve_related_incidents=False), id=alert)
    c.call("getReceipt", id=ingest_receipt(c, source))

    forms(c, run, incident)
    dashboards(c, run, service, functionality, team)
    workflows(c, run, incident)
    slas_and_playbooks(c, run, user)
    retrospectives(c, run, incident, team)
    routers_permissions_connectors(c, run, service)
    recordings_and_feedback(c, run, incident)
    pulses(c, run, service, environment)
    on_call_pay_reports(c, schedule)
    communications(c, run, user, service)
    authorizations_and_checklists(c, run, user, team)

    # Deletes, children before their parents.
    for operation, type_ in (
        ("bulkDeleteGroups", "teams"),
        ("bulkDeleteServices", "services"),
        ("bulkDeleteEnvironments", "environments"),
        ("bulkDeleteFunctionalities", "functionalities"),
    ):
        c.call(operation, {"external_ids": [f"sdk-{type_}-{run}"]}, model=f"BulkDestroy{type_.capitalize()}Type0")
    c.call("deleteAlertEvent", id=alert_event)
    c.call("deleteIncidentEventFunctionality", id=event_functionality)
    c.call("deleteIncidentEventService", id=event_service)
    c.call("deleteIncidentStatusPage", id=status_page_event)
    c.call("deleteIncidentSubStatus", id=incident_sub_status)
    c.call("deleteIncidentActionItem", id=action_item)
    c.call("deleteIncidentEvent", id=event)
    for id_ in (child, triaged, duplicate):
        c.call("deleteIncident", id=id_)
    c.call("deleteIncident", id=incident)
    c.call("deleteIncidentRoleTask", id=role_task)
    # The page's records before the page (its events are gone with their incidents), the page before its services and team.
    c.call("deleteStatusPageTeam", status_page_id=status_page, id=page_team)
    for operation, id_ in (
        ("deleteStatusPageAnnouncement", announcement),
        ("deleteStatusPageComponent", component),
        ("deleteStatusPageComponentGroup", component_group),
        ("deleteStatusPageTemplate", template),
        ("deleteStatusPage", status_page),
    ):
        c.call(operation, id=id_)
    for operation, id_ in (
        ("deleteScheduleRotationActiveDay", active_day),
        ("deleteScheduleRotationUser", rotation_user),
        ("deleteScheduleRotation", rotation),
        ("deleteOverrideShift", override),
        ("deleteOnCallShadow", shadow),
        ("deleteShiftCoverageRequest", coverage_request),
        ("deleteSchedule", schedule),
        ("deleteEscalationLevel", escalation_level),
        ("deleteEscalationLevel", path_level),
        ("deleteEscalationPath", escalation_path),
        ("deleteEscalationPolicy", escalation_policy),
    ):
        c.call(operation, id=id_)
    for operation, id_ in (
        ("deleteIncidentRole", incident_role),
        ("deleteSubStatus", sub_status),
        ("deleteIncidentType", incident_type),
        ("deleteCause", cause),
        ("deleteFunctionality", functionality),
        ("deleteEnvironment", environment),
        ("deleteService", service),
        ("deleteSeverity", severity),
        ("deleteAlertRoutingRule", routing_rule),
        ("deleteAlertRoute", alert_route),
        ("deleteHeartbeat", heartbeat),
        ("deleteAlertsSource", source),
        # The endpoint first: its custom header names the secret.
        ("deleteVerifiedDomain", verified_domain),
        ("deleteWebhooksEndpoint", webhooks_endpoint),
        ("deleteSecret", secret),
        ("deleteAlertField", alert_field),
        ("deleteAlertUrgency", urgency),
        ("deleteGroup", team),
        ("deleteApiKey", api_key),
        ("deleteOnCallRole", on_call_role),
        ("deleteRole", role),
    ):
        c.call(operation, id=id_)
    # A rule first: the contact methods it names stay while it does.
    for operation, id_ in (
        ("deleteUserNotificationRule", notification_rule),
        ("deleteUserPhoneNumber", phone_number),
        ("deleteUserEmailAddress", email_address),
    ):
        c.call(operation, id=id_)
    if spare_user_id:
        c.call("deleteUser", id=spare_user_id)


def catalogs(c: Check, run: str) -> None:
    """A catalog with a property, an entity and the entity's value, the bulk calls, and the built-in catalogs' properties; deleted children first."""
    catalog = ident(c.call("createCatalog", doc("catalogs", name=f"SDK catalog {run}", description="Data stores")))
    # The SDK declares the catalog property calls without a body (as the reference does): the id is read from the answer.
    prop = created_id(c, c.call("createCatalogProperty", doc("catalog_properties", name=f"SDK property {run}", kind="text"), catalog_id=catalog))
    entity = ident(c.call("createCatalogEntity", doc("catalog_entities", name=f"SDK entity {run}", description="Postgres"), catalog_id=catalog))
    value = ident(c.call("createCatalogEntityProperty", doc("catalog_entity_properties", catalog_field_id=prop, key="text", value="gold"), catalog_entity_id=entity))
    c.call("bulkUpsertCatalogEntities", {"entities": [{"external_id": f"sdk-entity-{run}", "name": f"SDK bulk entity {run}"}]}, catalog_id=catalog)
    # With the reference's include values: the SDK parses the relationships and included records too.
    c.call("listCatalogs", include="fields")
    c.call("getCatalog", id=catalog)
    c.call("updateCatalog", doc("catalogs", description="Where data lives"), id=catalog)
    c.call("listCatalogProperties", catalog_id=catalog)
    c.call("getCatalogProperty", id=prop)
    c.call("updateCatalogProperty", doc("catalog_properties", name=f"SDK property {run} renamed"), id=prop)
    c.call("listCatalogEntities", include="properties", catalog_id=catalog)
    c.call("getCatalogEntity", id=entity, include="catalog")
    c.call("updateCatalogEntity", doc("catalog_entities", description="Postgres 16"), id=entity)
    c.call("listCatalogEntityProperties", include="catalog_field", catalog_entity_id=entity)
    c.call("getCatalogEntityProperty", id=value, include="catalog_entity")
    c.call("updateCatalogEntityProperty", doc("catalog_entity_properties", value="silver"), id=value)
    # The built-in catalogs' own properties.
    built_in = []
    for list_op, create_op, catalog_type in (
        ("listServiceCatalogProperties", "createServiceCatalogProperty", "service"),
        ("listGroupCatalogProperties", "createGroupCatalogProperty", "team"),
        ("listEnvironmentCatalogProperties", "createEnvironmentCatalogProperty", "environment"),
        ("listFunctionalityCatalogProperties", "createFunctionalityCatalogProperty", "functionality"),
        ("listCauseCatalogProperties", "createCauseCatalogProperty", "cause"),
        ("listIncidentTypeCatalogProperties", "createIncidentTypeCatalogProperty", "incident_type"),
    ):
        built_in.append(ident(c.call(create_op, doc("catalog_properties", name=f"SDK {catalog_type} property {run}", kind="text", catalog_type=catalog_type))))
        c.call(list_op, include="catalog")
    for id_ in built_in:
        c.call("deleteCatalogProperty", id=id_)
    c.call("bulkDeleteCatalogEntities", {"external_ids": [f"sdk-entity-{run}"]}, model="BulkDestroyCatalogEntitiesType0", catalog_id=catalog)
    c.call("deleteCatalogEntityProperty", id=value)
    c.call("deleteCatalogEntity", id=entity)
    c.call("deleteCatalogProperty", id=prop)
    c.call("deleteCatalog", id=catalog)


def forms(c: Check, run: str, incident: str | None) -> None:
    """
    Form fields with an option, a placement and its condition, a position; a form set and its condition, a custom form; the deprecated custom fields; an incident's selections. Deleted children first. The SDK's
    models require the parent's id in some bodies as well as in the path (form_field_id, incident_id).
    """
    field = ident(c.call("createFormField", doc("form_fields", name=f"SDK field {run}", kind="custom", input_kind="select", shown=["web_new_incident_form"])))
    watcher = ident(c.call("createFormField", doc("form_fields", name=f"SDK watcher {run}", kind="custom")))
    option = ident(c.call("createFormFieldOption", doc("form_field_options", form_field_id=field, value="High", color="#ff0000"), form_field_id=field))
    form_set = ident(c.call("createFormSet", doc("form_sets", name=f"SDK set {run}", forms=["web_new_incident_form"])))
    set_condition = ident(c.call("createFormSetCondition", doc("form_set_conditions", form_field_id=watcher, comparison="equal", values=["security"]), form_set_id=form_set))
    placement = ident(c.call("createFormFieldPlacement", doc("form_field_placements", form_set_id=form_set, form="web_new_incident_form"), form_field_id=field))
    placement_condition = ident(
        c.call(
            "createFormFieldPlacementCondition",
            doc("form_field_placement_conditions", conditioned="required", form_field_id=watcher, comparison="equal", values=["yes"]),
            form_field_placement_id=placement,
        )
    )
    position = ident(c.call("createFormFieldPosition", doc("form_field_positions", form_field_id=field, form="web_new_incident_form", position=2), form_field_id=field))
    custom_form = ident(c.call("createCustomForm", doc("custom_forms", name=f"SDK form {run}", command=f"/sdk-{run}")))
    custom_field = ident(c.call("createCustomField", doc("custom_fields", label=f"SDK custom field {run}", kind="select", shown=["incident_form"])))
    custom_option = ident(c.call("createCustomFieldOption", doc("custom_field_options", value="EU", color="#123456"), custom_field_id=custom_field))
    selection = ident(c.call("createIncidentFormFieldSelection", doc("incident_form_field_selections", incident_id=incident, form_field_id=field, selected_option_ids=[option]), incident_id=incident))
    custom_selection = ident(
        c.call("createIncidentCustomFieldSelection", doc("incident_custom_field_selections", custom_field_id=custom_field, value=None, selected_option_ids=[custom_option]), incident_id=incident)
    )
    for list_op, parent, get_op, update_op, id_, type_, attributes in (
        ("listFormFields", {}, "getFormField", "updateFormField", field, "form_fields", {"description": "Who felt it"}),
        ("listFormFieldOptions", {"form_field_id": field}, "getFormFieldOption", "updateFormFieldOption", option, "form_field_options", {"value": "Highest"}),
        ("listFormSets", {}, "getFormSet", "updateFormSet", form_set, "form_sets", {"name": f"SDK set {run} renamed"}),
        ("listFormSetConditions", {"form_set_id": form_set}, "getFormSetCondition", "updateFormSetCondition", set_condition, "form_set_conditions", {"values": ["security", "privacy"]}),
        ("listFormFieldPlacements", {"form_field_id": field}, "getFormFieldPlacement", "updateFormFieldPlacement", placement, "form_field_placements", {"required": True}),
        (
            "listFormFieldPlacementConditions",
            {"form_field_placement_id": placement},
            "getFormFieldPlacementCondition",
            "updateFormFieldPlacementCondition",
            placement_condition,
            "form_field_placement_conditions",
            {"values": ["yes", "maybe"]},
        ),
        ("listFormFieldPositions", {"form_field_id": field}, "getFormFieldPosition", "updateFormFieldPosition", position, "form_field_positions", {"position": 0}),
        ("listCustomForms", {}, "getCustomForm", "updateCustomForm", custom_form, "custom_forms", {"command": f"/sdk-{run}-renamed"}),
        ("listCustomFields", {}, "getCustomField", "updateCustomField", custom_field, "custom_fields", {"default": "n/a"}),
        ("listCustomFieldOptions", {"custom_field_id": custom_field}, "getCustomFieldOption", "updateCustomFieldOption", custom_option, "custom_field_options", {"value": "Europe"}),
        ("listIncidentFormFieldSelections", {"incident_id": incident}, "getIncidentFormFieldSelection", "updateIncidentFormFieldSelection", selection, "incident_form_field_selections", {"value": "EU customers"}),
        (
            "listIncidentCustomFieldSelections",
            {"incident_id": incident},
            "getIncidentCustomFieldSelection",
            "updateIncidentCustomFieldSelection",
            custom_selection,
            "incident_custom_field_selections",
            {"value": "Europe"},
        ),
    ):
        c.call(list_op, **parent)
        c.call(get_op, id=id_)
        c.call(update_op, doc(type_, **attributes), id=id_)
    for operation, id_ in (
        ("deleteIncidentCustomFieldSelection", custom_selection),
        ("deleteIncidentFormFieldSelection", selection),
        ("deleteCustomFieldOption", custom_option),
        ("deleteCustomField", custom_field),
        ("deleteCustomForm", custom_form),
        ("deleteFormFieldPosition", position),
        ("deleteFormFieldPlacementCondition", placement_condition),
        ("deleteFormFieldPlacement", placement),
        ("deleteFormSetCondition", set_condition),
        ("deleteFormSet", form_set),
        ("deleteFormFieldOption", option),
        ("deleteFormField", watcher),
        ("deleteFormField", field),
    ):
        c.call(operation, id=id_)


def dashboards(c: Check, run: str, service: str | None, functionality: str | None, team: str | None) -> None:
    """A dashboard with a panel, both duplicated, the copy made the default; the built-in charts of a service, a functionality and a team. Deleted children first."""
    dashboard = ident(c.call("createDashboard", doc("dashboards", name=f"SDK dashboard {run}", owner="team")))
    incidents = {"collection": "incidents", "aggregate": {"operation": "count", "cumulative": False}}
    panel = ident(c.call("createDashboardPanel", doc("dashboard_panels", name="Incidents", params={"display": "line_chart", "datasets": [incidents]}), dashboard_id=dashboard))
    c.call("listDashboards")
    c.call("getDashboard", id=dashboard)
    c.call("updateDashboard", doc("dashboards", public=True), id=dashboard)
    c.call("listDashboardPanels", dashboard_id=dashboard)
    c.call("getDashboardPanel", id=panel)
    c.call("updateDashboardPanel", doc("dashboard_panels", name="Incidents a day"), id=panel)
    panel_copy = ident(c.call("duplicateDashboardPanel", id=panel))
    copy = ident(c.call("duplicateDashboard", id=dashboard))
    c.call("setDefaultDashboard", id=copy)
    c.call("getServiceIncidentsChart", id=service, period="day")
    c.call("getFunctionalityIncidentsChart", id=functionality, period="day")
    c.call("getTeamIncidentsChart", id=team, period="month")
    c.call("getServiceUptimeChart", id=service)
    c.call("getFunctionalityUptimeChart", id=functionality, period="day")
    c.call("deleteDashboardPanel", id=panel_copy)
    c.call("deleteDashboardPanel", id=panel)
    c.call("deleteDashboard", id=copy)
    c.call("deleteDashboard", id=dashboard)


def workflows(c: Check, run: str, incident: str | None) -> None:
    """A workflow group, a workflow in it with a run, form field conditions and a custom field selection (their fields its own). Deleted children first."""
    group = ident(c.call("createWorkflowGroup", doc("workflow_groups", name=f"SDK workflow group {run}", kind="incident")))
    workflow = ident(c.call("createWorkflow", doc("workflows", name=f"SDK workflow {run}", workflow_group_id=group)))
    field = ident(c.call("createFormField", doc("form_fields", name=f"SDK workflow field {run}", kind="custom", input_kind="multi_select")))
    option = ident(c.call("createFormFieldOption", doc("form_field_options", form_field_id=field, value="EU"), form_field_id=field))
    # An action item's field: the reference's (and so the SDK's) form field has no resource_type, so it is created with plain HTTP.
    action_item_field = plain_create(c, "/v1/form_fields", doc("form_fields", name=f"SDK action item field {run}", kind="custom", input_kind="multi_select", resource_type="action_item"))
    custom_field = ident(c.call("createCustomField", doc("custom_fields", label=f"SDK workflow custom field {run}")))
    # No workflow task: SDK 3.0.1 cannot build or parse one (README.md).
    c.call("createWorkflowRun", doc("workflow_runs", incident_id=incident), workflow_id=workflow)
    condition = ident(c.call("createWorkflowFormFieldCondition", doc("workflow_form_field_conditions", incident_condition="ANY", form_field_id=field, selected_option_ids=[option]), workflow_id=workflow))
    action_item_condition = ident(
        c.call(
            "createWorkflowActionItemFormFieldCondition",
            doc("workflow_action_item_form_field_conditions", form_field_id=action_item_field, action_item_condition="CONTAINS"),
            workflow_id=workflow,
        )
    )
    selection = ident(c.call("createWorkflowCustomFieldSelection", doc("workflow_custom_field_selections", incident_condition="ANY", custom_field_id=custom_field, values=["EU"]), workflow_id=workflow))
    c.call("ListWorkflowRuns", workflow_id=workflow)
    for list_op, parent, get_op, update_op, id_, type_, attributes in (
        ("listWorkflowGroups", {}, "getWorkflowGroup", "updateWorkflowGroup", group, "workflow_groups", {"name": f"SDK workflow group {run} renamed"}),
        ("listWorkflows", {}, "getWorkflow", "updateWorkflow", workflow, "workflows", {"description": "Pages the owner"}),
        ("listWorkflowFormFieldConditions", {"workflow_id": workflow}, "getWorkflowFormFieldCondition", "updateWorkflowFormFieldCondition", condition, "workflow_form_field_conditions", {"selected_option_ids": []}),
        (
            "listWorkflowActionItemFormFieldConditions",
            {"workflow_id": workflow},
            "getWorkflowActionItemFormFieldCondition",
            "updateWorkflowActionItemFormFieldCondition",
            action_item_condition,
            "workflow_action_item_form_field_conditions",
            {"action_item_condition": "IS"},
        ),
        ("listWorkflowCustomFieldSelections", {"workflow_id": workflow}, "getWorkflowCustomFieldSelection", "updateWorkflowCustomFieldSelection", selection, "workflow_custom_field_selections", {"values": ["EU", "US"]}),
    ):
        c.call(list_op, **parent)
        c.call(get_op, id=id_)
        c.call(update_op, doc(type_, **attributes), id=id_)
    for operation, id_ in (
        ("deleteWorkflowCustomFieldSelection", selection),
        ("deleteWorkflowActionItemFormFieldCondition", action_item_condition),
        ("deleteWorkflowFormFieldCondition", condition),
        ("deleteWorkflow", workflow),
        ("deleteWorkflowGroup", group),
        ("deleteCustomField", custom_field),
        ("deleteFormFieldOption", option),
        ("deleteFormField", field),
    ):
        c.call(operation, id=id_)
    # Plain HTTP again: SDK 3.0.1's FormField.resource_type knows only incident and problem, so it cannot parse an action item's field (README.md).
    if action_item_field:
        c.client.get_httpx_client().delete(f"/v1/form_fields/{action_item_field}")


def slas_and_playbooks(c: Check, run: str, user: str | None) -> None:
    """An SLA for action items; a playbook with a task. Deleted children first."""
    deadlines = {"assignment_deadline_days": 2, "assignment_deadline_parent_status": "started", "completion_deadline_days": 14, "completion_deadline_parent_status": "resolved"}
    sla = ident(c.call("createSLA", doc("slas", name=f"SDK SLA {run}", manager_user_id=int(user) if user else None, **deadlines)))
    c.call("listSLAs")
    c.call("getSLA", id=sla)
    c.call("updateSLA", doc("slas", completion_deadline_days=30, completion_skip_weekends=True), id=sla)
    playbook = ident(c.call("createPlaybook", doc("playbooks", title=f"SDK playbook {run}", summary="Fail the database over")))
    task = ident(c.call("createPlaybookTask", doc("playbook_tasks", task="Page the DBA"), playbook_id=playbook))
    c.call("listPlaybooks")
    c.call("getPlaybook", id=playbook)
    c.call("updatePlaybook", doc("playbooks", summary="Fail over to the replica"), id=playbook)
    c.call("listPlaybookTasks", playbook_id=playbook)
    c.call("getPlaybookTask", id=task)
    c.call("updatePlaybookTask", doc("playbook_tasks", description="Within 5 minutes"), id=task)
    c.call("deletePlaybookTask", id=task)
    c.call("deletePlaybook", id=playbook)
    c.call("deleteSLA", id=sla)


def retrospectives(c: Check, run: str, incident: str | None, team: str | None) -> None:
    """
    A retrospective process with a step and a group placing it, a post-mortem template, the incident's post-mortem. Deleted children first.
    One process matches a team, one matches everything (no criteria: none answered, which the SDK parses). The organization's skip
    configuration names the team; an incident created after the processes has its copy of the catch-all's steps.
    """
    catch_all = ident(c.call("createRetrospectiveProcess", doc("retrospective_processes", name=f"SDK catch-all process {run}", copy_from="starter_template")))
    process = ident(
        c.call("createRetrospectiveProcess", doc("retrospective_processes", name=f"SDK process {run}", copy_from="starter_template", retrospective_process_matching_criteria={"group_ids": [team]}))
    )
    step = ident(c.call("createRetrospectiveStep", doc("retrospective_steps", title=f"SDK step {run}"), retrospective_process_id=process))
    # A group's sub-status is a retrospective one, created with plain HTTP: the SDK's SubStatus cannot parse parent_status "retrospective" (README.md).
    reviewing = plain_create(c, "/v1/sub_statuses", doc("sub_statuses", name=f"SDK reviewing {run}", parent_status="retrospective"))
    group = ident(c.call("createRetrospectiveProcessGroup", doc("retrospective_process_groups", sub_status_id=reviewing), retrospective_process_id=process))
    group_step = ident(c.call("createRetrospectiveProcessGroupStep", doc("retrospective_process_group_steps", retrospective_step_id=step), retrospective_process_group_id=group))
    template = ident(c.call("createPostmortemTemplate", doc("post_mortem_templates", name=f"SDK review {run}", content="<h1>{{ incident.title }}</h1>")))
    for list_op, parent, get_op, update_op, id_, type_, attributes in (
        ("listRetrospectiveProcesses", {}, "getRetrospectiveProcess", "updateRetrospectiveProcess", process, "retrospective_processes", {"description": "For every outage"}),
        ("listRetrospectiveSteps", {"retrospective_process_id": process}, "getRetrospectiveStep", "updateRetrospectiveStep", step, "retrospective_steps", {"description": "Write it down"}),
        ("listRetrospectiveProcessGroups", {"retrospective_process_id": process}, "getRetrospectiveProcessGroup", "updateRetrospectiveProcessGroup", group, "retrospective_process_groups", {"position": 1}),
        (
            "listRetrospectiveProcessGroupSteps",
            {"retrospective_process_group_id": group},
            "getRetrospectiveProcessGroupStep",
            "updateRetrospectiveProcessGroupStep",
            group_step,
            "retrospective_process_group_steps",
            {"position": 1},
        ),
        ("listPostmortemTemplates", {}, "getPostmortemTemplate", "updatePostmortemTemplate", template, "post_mortem_templates", {"name": f"SDK review {run} renamed"}),
        ("listIncidentPostMortems", {}, "ListIncidentPostmortem", "updateIncidentPostmortem", incident, "incident_post_mortems", {"title": f"SDK post-mortem {run}", "status": "draft"}),
    ):
        c.call(list_op, **parent)
        c.call(get_op, id=id_)
        c.call(update_op, doc(type_, **attributes), id=id_)
    configurations = c.call("listRetrospectiveConfigurations", include="groups", filterkind="skip")
    configuration = configurations.data[0].id if configurations and configurations.data else None
    c.call("getRetrospectiveConfiguration", id=configuration, include="severities")
    c.call("updateRetrospectiveConfiguration", doc("retrospective_configurations", group_ids=[team] if team else []), id=configuration)
    # The incident's steps are listed at Taproot's own route (the reference has none): plain HTTP.
    reviewed = plain_create(c, "/v1/incidents", doc("incidents", title=f"SDK retrospective incident {run}"))
    steps = c.client.get_httpx_client().get(f"/v1/incidents/{reviewed}/retrospective_steps").json().get("data", []) if reviewed else []
    incident_step = steps[0]["id"] if steps else None
    c.call("getIncidentRetrospectiveStep", id=incident_step)
    c.call("updateIncidentRetrospectiveStep", doc("incident_retrospective_steps", status="completed", description="Done in the meeting"), id=incident_step)
    if reviewed:
        c.client.get_httpx_client().delete(f"/v1/incidents/{reviewed}")
    for operation, id_ in (
        ("deletePostmortemTemplate", template),
        ("deleteRetrospectiveProcessGroupStep", group_step),
        ("deleteRetrospectiveProcessGroup", group),
        ("deleteRetrospectiveStep", step),
        ("deleteRetrospectiveProcess", process),
        ("deleteRetrospectiveProcess", catch_all),
    ):
        c.call(operation, id=id_)
    if reviewing:
        c.client.get_httpx_client().delete(f"/v1/sub_statuses/{reviewing}")


def routers_permissions_connectors(c: Check, run: str, service: str | None) -> None:
    """A live call router and a number for one; an incident permission set with a boolean and a resource; an edge connector with an action. Deleted children first."""
    c.call("generatePhoneNumberLiveCallRouter", country_code="US", phone_type="local")
    # The SDK sends the create's "service"; Taproot answers "Service", as the reference's answer (and the SDK's LiveCallRouter) has it.
    router = ident(
        c.call(
            "createLiveCallRouter",
            doc(
                "live_call_routers",
                name=f"SDK support line {run}",
                kind="live",
                country_code="US",
                phone_type="local",
                phone_number=f"+1415555{int(run, 16) % 10000:04d}",
                voicemail_greeting="Leave a message",
                paging_targets=[],
                escalation_policy_trigger_params={"id": service, "type": "service"},
            ),
        )
    )
    # A phone tree without a direct target: none answered, which the SDK parses.
    tree = ident(
        c.call(
            "createLiveCallRouter",
            doc(
                "live_call_routers",
                name=f"SDK phone tree {run}",
                kind="voicemail",
                country_code="US",
                phone_type="local",
                phone_number=f"+1415556{int(run, 16) % 10000:04d}",
                voicemail_greeting="Leave a message",
                paging_targets=[],
            ),
        )
    )
    c.call("listLiveCallRouters")
    c.call("getLiveCallRouter", id=router)
    c.call("updateLiveCallRouter", doc("live_call_routers", kind="voicemail", unavailable_responder_message="Nobody is free", escalation_policy_trigger_params={"id": service, "type": "Service"}), id=router)
    permission_set = ident(c.call("createIncidentPermissionSet", doc("incident_permission_sets", name=f"SDK responders {run}")))
    boolean = ident(c.call("createIncidentPermissionSetBoolean", doc("incident_permission_set_booleans", incident_permission_set_id=permission_set, kind="update_summary"), incident_permission_set_id=permission_set))
    resource = ident(
        c.call("createIncidentPermissionSetResource", doc("incident_permission_set_resources", incident_permission_set_id=permission_set, kind="severities", resource_type="Severity", resource_id=str(uuid.uuid4())), incident_permission_set_id=permission_set)
    )
    # The SDK declares the edge connectors' calls without a body (as the reference does): ids are read from the answers.
    connector = created_id(c, c.call("createEdgeConnector", doc("edge_connectors", name=f"SDK datacenter agent {run}")))
    action = created_id(c, c.call("createEdgeConnectorAction", doc("edge_connector_actions", name="Restart", action_type="script"), edge_connector_id=connector))
    for list_op, parent, get_op, update_op, id_, type_, attributes in (
        ("listIncidentPermissionSets", {}, "getIncidentPermissionSet", "updateIncidentPermissionSet", permission_set, "incident_permission_sets", {"public_incident_permissions": ["create", "read"]}),
        (
            "listIncidentPermissionSetBooleans",
            {"incident_permission_set_id": permission_set},
            "getIncidentPermissionSetBoolean",
            "updateIncidentPermissionSetBoolean",
            boolean,
            "incident_permission_set_booleans",
            {"enabled": False},
        ),
        (
            "listIncidentPermissionSetResources",
            {"incident_permission_set_id": permission_set},
            "getIncidentPermissionSetResource",
            "updateIncidentPermissionSetResource",
            resource,
            "incident_permission_set_resources",
            {"private": True},
        ),
        ("listEdgeConnectors", {}, "getEdgeConnector", "updateEdgeConnector", connector, "edge_connectors", {"description": "In the datacenter"}),
    ):
        c.call(list_op, **parent)
        c.call(get_op, id=id_)
        c.call(update_op, doc(type_, **attributes), id=id_)
    # An action is named under its connector.
    c.call("listEdgeConnectorActions", edge_connector_id=connector)
    c.call("getEdgeConnectorAction", edge_connector_id=connector, id=action)
    c.call("updateEdgeConnectorAction", doc("edge_connector_actions", name="Restart twice"), edge_connector_id=connector, id=action)
    c.call("deleteEdgeConnectorAction", edge_connector_id=connector, id=action)
    for operation, id_ in (
        ("deleteEdgeConnector", connector),
        ("deleteIncidentPermissionSetResource", resource),
        ("deleteIncidentPermissionSetBoolean", boolean),
        ("deleteIncidentPermissionSet", permission_set),
        ("deleteLiveCallRouter", router),
        ("deleteLiveCallRouter", tree),
    ):
        c.call(operation, id=id_)


def recordings_and_feedback(c: Check, run: str, incident: str | None) -> None:
    """The incident's meeting recordings through their moves, an imported one without its video, a standalone session; a feedback on the incident. Deleted last."""
    recording = ident(c.call("createMeetingRecording", incident_id=incident, platform="zoom"))
    other = ident(c.call("createMeetingRecording", incident_id=incident, platform="microsoft_teams"))
    c.call("listMeetingRecordings", incident_id=incident)
    c.call("listAllMeetingRecordings")
    c.call("getMeetingRecording", id=recording)
    c.call("resumeMeetingRecording", id=recording)
    c.call("pauseMeetingRecording", id=recording)
    c.call("resumeMeetingRecording", id=recording)
    c.call("leaveMeetingRecording", id=recording)
    c.call("stopMeetingRecording", id=other)
    imported = ident(
        c.call(
            "importMeetingRecording",
            {"source": "recall_desktop_sdk", "recall_recording_id": str(uuid.uuid4()), "platform": "google_meet", "video_url": "https://media.example.test/r.mp4", "word_count": 120},
            incident_id=incident,
        )
    )
    c.call("deleteMeetingRecordingVideo", id=imported)
    session = c.call("startRecordingSession", {"platform": "webex", "title": f"SDK desk call {run}"})
    session_id = getattr(getattr(session, "data", None), "session_id", None)
    c.call("stopMeetingRecording", id=session_id)
    c.call("deleteStandaloneMeetingRecording", id=session_id)
    for id_ in (imported, other, recording):
        c.call("deleteMeetingRecording", id=id_)
    feedback = ident(c.call("createIncidentFeedback", doc("incident_feedbacks", incident_id=incident, rating=4, feedback="Great coordination"), incident_id=incident))
    c.call("listIncidentFeedbacks", incident_id=incident)
    c.call("getIncidentFeedbacks", id=feedback)
    c.call("updateIncidentFeedback", doc("incident_feedbacks", rating=3, anonymous=True), id=feedback)


def pulses(c: Check, run: str, service: str | None, environment: str | None) -> None:
    """A deploy pulse on the service and environment, with labels and refs; listed by service, read, its end and summary changed. Pulses have no delete."""
    pulse = ident(
        c.call(
            "createPulse",
            doc(
                "pulses",
                summary=f"SDK deploy {run}",
                source="k8s",
                service_ids=[service],
                environment_ids=[environment],
                started_at=iso(timedelta(minutes=-5)),
                labels=[{"key": "version", "value": "2"}],
                refs=[{"key": "sha", "value": "cd62148cbc5eb42168fe99fdb50a364e12b206ac"}],
            ),
        )
    )
    c.call("listPulses", filterservices=service)
    c.call("getPulse", id=pulse)
    c.call("updatePulse", doc("pulses", summary=f"SDK deploy {run} done", ended_at=iso()), id=pulse)


def on_call_pay_reports(c: Check, schedule: str | None) -> None:
    """A pay report of the schedule over the coming week, generated at once; listed by status, read, its period changed, regenerated."""
    today = datetime.now(timezone.utc).date()
    report = ident(c.call("createOnCallPayReport", doc("on_call_pay_reports", start_date=today.isoformat(), end_date=(today + timedelta(days=6)).isoformat(), schedule_ids=[schedule], time_zone="Europe/Paris")))
    c.call("listOnCallPayReports", filterstatus="generated")
    c.call("getOnCallPayReport", id=report)
    c.call("updateOnCallPayReport", doc("on_call_pay_reports", end_date=(today + timedelta(days=13)).isoformat(), use_responders_time_zone=True), id=report)
    c.call("regenerateOnCallPayReport", id=report)


def communications(c: Check, run: str, user: str | None, service: str | None) -> None:
    """
    Incident communications' settings: a type and a stage, a template with contents for the stage,
    a group of the type with the user, an external member and a service condition; each listed,
    read, changed and deleted (the group and template before the stage and type they name).
    """
    type_ = ident(c.call("createCommunicationsType", doc("communications_types", name=f"SDK outage {run}", color="#D0021B")))
    stage = ident(c.call("createCommunicationsStage", doc("communications_stages", name=f"SDK investigating {run}", description="Looking into it")))
    template = ident(
        c.call(
            "createCommunicationsTemplate",
            doc(
                "communications_templates",
                name=f"SDK notice {run}",
                communication_type_id=type_,
                communication_template_stages_attributes=[{"communication_stage_id": stage, "sms_content": "We are investigating", "email_subject": "Investigating"}],
            ),
        )
    )
    group = ident(
        c.call(
            "createCommunicationsGroup",
            doc(
                "communications_groups",
                name=f"SDK stakeholders {run}",
                communication_type_id=type_,
                email_channel=True,
                member_ids=[int(user)] if user else [],
                communication_group_conditions=[{"property_type": "service", "service_ids": [service]}] if service else [],
                communication_external_group_members=[{"name": "Ada", "email": "ada@example.com"}],
            ),
        )
    )
    c.call("listCommunicationsTypes", filtername=f"SDK outage {run}")
    c.call("listCommunicationsStages", filtersearch="investigating")
    c.call("listCommunicationsTemplates", filtercommunication_type_id=type_)
    c.call("listCommunicationsGroups", filtercommunication_type_id=type_)
    for operation, id_ in (("getCommunicationsType", type_), ("getCommunicationsStage", stage), ("getCommunicationsTemplate", template), ("getCommunicationsGroup", group)):
        c.call(operation, id=id_)
    c.call("updateCommunicationsType", doc("communications_types", color="#F5A623"), id=type_)
    c.call("updateCommunicationsStage", doc("communications_stages", position=1), id=stage)
    c.call("updateCommunicationsTemplate", doc("communications_templates", description="For customers"), id=template)
    c.call("updateCommunicationsGroup", doc("communications_groups", sms_channel=True, condition_type="all"), id=group)
    for operation, id_ in (("deleteCommunicationsGroup", group), ("deleteCommunicationsTemplate", template), ("deleteCommunicationsStage", stage), ("deleteCommunicationsType", type_)):
        c.call(operation, id=id_)


def authorizations_and_checklists(c: Check, run: str, user: str | None, team: str | None) -> None:
    """A grant on a dashboard to a team, its permissions changed; a checklist template of the team's groups, triggered, its checklist listed and read; the IP ranges. Deleted after."""
    dashboard = ident(c.call("createDashboard", doc("dashboards", name=f"SDK granted {run}", owner="team")))
    grant = ident(c.call("createAuthorization", doc("authorizations", authorizable_id=dashboard, authorizable_type="Dashboard", grantee_id=team, grantee_type="Team", permissions=["read"])))
    c.call("listAuthorizations", filterauthorizable_id=dashboard)
    c.call("getAuthorization", id=grant)
    c.call("updateAuthorization", doc("authorizations", permissions=["read", "update"]), id=grant)
    template = ident(
        c.call(
            "createCatalogChecklistTemplate",
            doc("catalog_checklist_templates", name=f"SDK audit {run}", catalog_type="Group", scope_type="Team", scope_id=team, fields=[{"field_source": "builtin", "field_key": "description"}], owners=[{"type": "user", "id": user}]),
        )
    )
    c.call("listCatalogChecklistTemplates", filtercatalog_type="Group")
    c.call("getCatalogChecklistTemplate", id=template)
    c.call("updateCatalogChecklistTemplate", doc("catalog_checklist_templates", description="Teams reviewed each quarter"), id=template)
    c.call("triggerCatalogChecklistTemplate", id=template)
    listed = c.call("listCatalogEntityChecklists", filtercatalog_checklist_template_id=template)
    checklist = listed.data[0].id if listed is not None and getattr(listed, "data", None) else None
    c.call("getCatalogEntityChecklist", id=checklist)
    c.call("getIpRanges")
    c.call("deleteCatalogChecklistTemplate", id=template)
    c.call("deleteAuthorization", id=grant)
    c.call("deleteDashboard", id=dashboard)


def ingest_receipt(c: Check, source: str | None) -> str | None:
    """
    A receipt to read: one Alertmanager alert sent to the source's inbound route (a Taproot route
    the SDK has no call for), authenticated by the source's secret as Alertmanager is.
    """
    if source is None:
        return None
    secret = c.client.get_httpx_client().get(f"/v1/alert_sources/{source}").json()["data"]["attributes"]["secret"]
    payload = {
        "version": "4",
        "status": "firing",
        "alerts": [{"status": "firing", "labels": {"alertname": "SdkCheck"}, "annotations": {}, "fingerprint": hashlib.sha1(source.encode()).hexdigest()[:16]}],
    }
    answer = httpx.post(f"{c.base_url}/v1/alert_sources/{source}/alerts", params={"secret": secret}, json=payload, timeout=30)
    if answer.status_code != 202:
        return None
    return answer.json()["meta"]["receipts"][0]["id"]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.strip().splitlines()[0])
    parser.add_argument("--base-url", required=True)
    parser.add_argument("--token", required=True)
    parser.add_argument("--spare-user-id", help="a user the scenario may delete")
    # One value after "=": a token may begin with "-", which argparse would take for an option.
    parser.add_argument("--verify-email", type=lambda v: v.split(":", 1), metavar="ID:TOKEN", help="an e-mail address and a token that verifies it")
    parser.add_argument("--webhook-delivery", help="a webhook delivery to read and redeliver")
    parser.add_argument("--report", help="the file to write the report to (default stdout)")
    args = parser.parse_args()
    check = Check(args.base_url.rstrip("/"), args.token)
    scenario(check, args.spare_user_id, args.verify_email, args.webhook_delivery)
    report = json.dumps(check.report(), indent=2) + "\n"
    if args.report:
        with open(args.report, "w", encoding="utf-8") as file:
            file.write(report)
    else:
        sys.stdout.write(report)
    return 0


if __name__ == "__main__":
    sys.exit(main())

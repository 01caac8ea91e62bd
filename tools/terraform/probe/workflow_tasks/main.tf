# Every workflow task resource of the provider that the other configurations leave out (141; the
# workflows configuration has add_to_timeline, create_jira_issue, http_client, print and
# send_email), each with the members its documentation requires in task_params, under one simple
# workflow. Generated from the provider's docs/resources/workflow_task_*.md (tools/terraform/README.md).
# Taproot stores tasks and runs none of them (docs/workflows.md), so names and ids here need not
# name real integrations.

resource "rootly_workflow_simple" "tasks" {
  name = "tf-probe workflow of every task ${var.rev}"
  trigger_params {
    triggers = ["slack_command"]
  }
  enabled = true
}

resource "rootly_workflow_task_add_action_item" "probe" {
  workflow_id = rootly_workflow_simple.tasks.id
  name        = "tf-probe add_action_item ${var.rev}"
  task_params {
    priority = "high"
    status   = "open"
    summary  = "tf-probe ${var.rev}"
  }
}

resource "rootly_workflow_task_add_microsoft_teams_chat_tab" "probe" {
  workflow_id = rootly_workflow_simple.tasks.id
  name        = "tf-probe add_microsoft_teams_chat_tab ${var.rev}"
  task_params {
    chat  = { id = "tf-probe-id", name = "tf-probe" }
    link  = "tf-probe ${var.rev}"
    title = "tf-probe ${var.rev}"
  }
}

resource "rootly_workflow_task_add_microsoft_teams_tab" "probe" {
  workflow_id = rootly_workflow_simple.tasks.id
  name        = "tf-probe add_microsoft_teams_tab ${var.rev}"
  task_params {
    channel = { id = "tf-probe-id", name = "tf-probe" }
    team    = { id = "tf-probe-id", name = "tf-probe" }
  }
}

resource "rootly_workflow_task_add_role" "probe" {
  workflow_id = rootly_workflow_simple.tasks.id
  name        = "tf-probe add_role ${var.rev}"
  task_params {
    incident_role_id = "tf-probe-id"
  }
}

resource "rootly_workflow_task_add_slack_bookmark" "probe" {
  workflow_id = rootly_workflow_simple.tasks.id
  name        = "tf-probe add_slack_bookmark ${var.rev}"
  task_params {
    channel = { id = "tf-probe-id", name = "tf-probe" }
  }
}

resource "rootly_workflow_task_add_team" "probe" {
  workflow_id = rootly_workflow_simple.tasks.id
  name        = "tf-probe add_team ${var.rev}"
  task_params {
    group_id = "tf-probe-id"
  }
}

resource "rootly_workflow_task_archive_google_chat_spaces" "probe" {
  workflow_id = rootly_workflow_simple.tasks.id
  name        = "tf-probe archive_google_chat_spaces ${var.rev}"
  task_params {
    spaces {
      id   = "tf-probe-id"
      name = "tf-probe ${var.rev}"
    }
  }
}

resource "rootly_workflow_task_archive_microsoft_teams_channels" "probe" {
  workflow_id = rootly_workflow_simple.tasks.id
  name        = "tf-probe archive_microsoft_teams_channels ${var.rev}"
  task_params {
    team = { id = "tf-probe-id", name = "tf-probe" }
    channels {
      id   = "tf-probe-id"
      name = "tf-probe ${var.rev}"
    }
  }
}

resource "rootly_workflow_task_archive_slack_channels" "probe" {
  workflow_id = rootly_workflow_simple.tasks.id
  name        = "tf-probe archive_slack_channels ${var.rev}"
  task_params {
    channels {
      id   = "tf-probe-id"
      name = "tf-probe ${var.rev}"
    }
  }
}

resource "rootly_workflow_task_attach_datadog_dashboards" "probe" {
  workflow_id = rootly_workflow_simple.tasks.id
  name        = "tf-probe attach_datadog_dashboards ${var.rev}"
  task_params {
    dashboards {
      id   = "tf-probe-id"
      name = "tf-probe ${var.rev}"
    }
  }
}

resource "rootly_workflow_task_auto_assign_role_opsgenie" "probe" {
  workflow_id = rootly_workflow_simple.tasks.id
  name        = "tf-probe auto_assign_role_opsgenie ${var.rev}"
  task_params {
    incident_role_id = "tf-probe-id"
    schedule         = { id = "tf-probe-id", name = "tf-probe" }
  }
}

resource "rootly_workflow_task_auto_assign_role_pagerduty" "probe" {
  workflow_id = rootly_workflow_simple.tasks.id
  name        = "tf-probe auto_assign_role_pagerduty ${var.rev}"
  task_params {
    incident_role_id = "tf-probe-id"
  }
}

resource "rootly_workflow_task_auto_assign_role_rootly" "probe" {
  workflow_id = rootly_workflow_simple.tasks.id
  name        = "tf-probe auto_assign_role_rootly ${var.rev}"
  task_params {
    incident_role_id = "tf-probe-id"
  }
}

resource "rootly_workflow_task_auto_assign_role_victor_ops" "probe" {
  workflow_id = rootly_workflow_simple.tasks.id
  name        = "tf-probe auto_assign_role_victor_ops ${var.rev}"
  task_params {
    incident_role_id = "tf-probe-id"
    team             = { id = "tf-probe-id", name = "tf-probe" }
  }
}

resource "rootly_workflow_task_call_people" "probe" {
  workflow_id = rootly_workflow_simple.tasks.id
  name        = "tf-probe call_people ${var.rev}"
  task_params {
    content       = "tf-probe ${var.rev}"
    name          = "tf-probe ${var.rev}"
    phone_numbers = ["tf-probe"]
  }
}

resource "rootly_workflow_task_change_google_chat_space_privacy" "probe" {
  workflow_id = rootly_workflow_simple.tasks.id
  name        = "tf-probe change_google_chat_space_privacy ${var.rev}"
  task_params {
    space = { id = "tf-probe-id", name = "tf-probe" }
  }
}

resource "rootly_workflow_task_change_slack_channel_privacy" "probe" {
  workflow_id = rootly_workflow_simple.tasks.id
  name        = "tf-probe change_slack_channel_privacy ${var.rev}"
  task_params {
    channel = { id = "tf-probe-id", name = "tf-probe" }
    privacy = "private"
  }
}

resource "rootly_workflow_task_create_airtable_table_record" "probe" {
  workflow_id = rootly_workflow_simple.tasks.id
  name        = "tf-probe create_airtable_table_record ${var.rev}"
  task_params {
    base  = { id = "tf-probe-id", name = "tf-probe" }
    table = { id = "tf-probe-id", name = "tf-probe" }
  }
}

resource "rootly_workflow_task_create_anthropic_chat_completion" "probe" {
  workflow_id = rootly_workflow_simple.tasks.id
  name        = "tf-probe create_anthropic_chat_completion ${var.rev}"
  task_params {
    model  = { id = "tf-probe-id", name = "tf-probe" }
    prompt = "tf-probe ${var.rev}"
  }
}

resource "rootly_workflow_task_create_asana_subtask" "probe" {
  workflow_id = rootly_workflow_simple.tasks.id
  name        = "tf-probe create_asana_subtask ${var.rev}"
  task_params {
    completion     = { id = "tf-probe-id", name = "tf-probe" }
    parent_task_id = "tf-probe-id"
    title          = "tf-probe ${var.rev}"
  }
}

resource "rootly_workflow_task_create_asana_task" "probe" {
  workflow_id = rootly_workflow_simple.tasks.id
  name        = "tf-probe create_asana_task ${var.rev}"
  task_params {
    completion = { id = "tf-probe-id", name = "tf-probe" }
    title      = "tf-probe ${var.rev}"
    workspace  = { id = "tf-probe-id", name = "tf-probe" }
    projects {
      id   = "tf-probe-id"
      name = "tf-probe ${var.rev}"
    }
  }
}

resource "rootly_workflow_task_create_clickup_task" "probe" {
  workflow_id = rootly_workflow_simple.tasks.id
  name        = "tf-probe create_clickup_task ${var.rev}"
  task_params {
    list  = { id = "tf-probe-id", name = "tf-probe" }
    title = "tf-probe ${var.rev}"
  }
}

resource "rootly_workflow_task_create_coda_page" "probe" {
  workflow_id = rootly_workflow_simple.tasks.id
  name        = "tf-probe create_coda_page ${var.rev}"
  task_params {
    title = "tf-probe ${var.rev}"
  }
}

resource "rootly_workflow_task_create_confluence_page" "probe" {
  workflow_id = rootly_workflow_simple.tasks.id
  name        = "tf-probe create_confluence_page ${var.rev}"
  task_params {
    space = { id = "tf-probe-id", name = "tf-probe" }
    title = "tf-probe ${var.rev}"
  }
}

resource "rootly_workflow_task_create_datadog_notebook" "probe" {
  workflow_id = rootly_workflow_simple.tasks.id
  name        = "tf-probe create_datadog_notebook ${var.rev}"
  task_params {
    kind  = "postmortem"
    title = "tf-probe ${var.rev}"
  }
}

resource "rootly_workflow_task_create_dropbox_paper_page" "probe" {
  workflow_id = rootly_workflow_simple.tasks.id
  name        = "tf-probe create_dropbox_paper_page ${var.rev}"
  task_params {
    title = "tf-probe ${var.rev}"
  }
}

resource "rootly_workflow_task_create_github_issue" "probe" {
  workflow_id = rootly_workflow_simple.tasks.id
  name        = "tf-probe create_github_issue ${var.rev}"
  task_params {
    repository = { id = "tf-probe-id", name = "tf-probe" }
    title      = "tf-probe ${var.rev}"
  }
}

resource "rootly_workflow_task_create_gitlab_issue" "probe" {
  workflow_id = rootly_workflow_simple.tasks.id
  name        = "tf-probe create_gitlab_issue ${var.rev}"
  task_params {
    repository = { id = "tf-probe-id", name = "tf-probe" }
    title      = "tf-probe ${var.rev}"
  }
}

resource "rootly_workflow_task_create_go_to_meeting" "probe" {
  workflow_id = rootly_workflow_simple.tasks.id
  name        = "tf-probe create_go_to_meeting ${var.rev}"
  task_params {
    subject = "tf-probe ${var.rev}"
  }
}

resource "rootly_workflow_task_create_google_calendar_event" "probe" {
  workflow_id = rootly_workflow_simple.tasks.id
  name        = "tf-probe create_google_calendar_event ${var.rev}"
  task_params {
    days_until_meeting = 1
    description        = "tf-probe ${var.rev}"
    meeting_duration   = "tf-probe ${var.rev}"
    summary            = "tf-probe ${var.rev}"
    time_of_meeting    = "tf-probe ${var.rev}"
  }
}

resource "rootly_workflow_task_create_google_chat_space" "probe" {
  workflow_id = rootly_workflow_simple.tasks.id
  name        = "tf-probe create_google_chat_space ${var.rev}"
  task_params {
    title = "tf-probe ${var.rev}"
  }
}

resource "rootly_workflow_task_create_google_docs_page" "probe" {
  workflow_id = rootly_workflow_simple.tasks.id
  name        = "tf-probe create_google_docs_page ${var.rev}"
  task_params {
    title = "tf-probe ${var.rev}"
  }
}

resource "rootly_workflow_task_create_google_docs_permissions" "probe" {
  workflow_id = rootly_workflow_simple.tasks.id
  name        = "tf-probe create_google_docs_permissions ${var.rev}"
  task_params {
    file_id     = "tf-probe-id"
    permissions = "tf-probe ${var.rev}"
  }
}

resource "rootly_workflow_task_create_google_gemini_chat_completion" "probe" {
  workflow_id = rootly_workflow_simple.tasks.id
  name        = "tf-probe create_google_gemini_chat_completion ${var.rev}"
  task_params {
    model  = { id = "tf-probe-id", name = "tf-probe" }
    prompt = "tf-probe ${var.rev}"
  }
}

resource "rootly_workflow_task_create_google_meeting" "probe" {
  workflow_id = rootly_workflow_simple.tasks.id
  name        = "tf-probe create_google_meeting ${var.rev}"
  task_params {
    description = "tf-probe ${var.rev}"
    summary     = "tf-probe ${var.rev}"
  }
}

resource "rootly_workflow_task_create_incident" "probe" {
  workflow_id = rootly_workflow_simple.tasks.id
  name        = "tf-probe create_incident ${var.rev}"
  task_params {
    title = "tf-probe ${var.rev}"
  }
}

resource "rootly_workflow_task_create_incident_postmortem" "probe" {
  workflow_id = rootly_workflow_simple.tasks.id
  name        = "tf-probe create_incident_postmortem ${var.rev}"
  task_params {
    incident_id = "tf-probe-id"
    title       = "tf-probe ${var.rev}"
  }
}

resource "rootly_workflow_task_create_jira_subtask" "probe" {
  workflow_id = rootly_workflow_simple.tasks.id
  name        = "tf-probe create_jira_subtask ${var.rev}"
  task_params {
    parent_issue_id    = "tf-probe-id"
    project_key        = "tf-probe ${var.rev}"
    subtask_issue_type = { id = "tf-probe-id", name = "tf-probe" }
    title              = "tf-probe ${var.rev}"
  }
}

resource "rootly_workflow_task_create_jsmops_alert" "probe" {
  workflow_id = rootly_workflow_simple.tasks.id
  name        = "tf-probe create_jsmops_alert ${var.rev}"
  task_params {
    message = "tf-probe ${var.rev}"
  }
}

resource "rootly_workflow_task_create_linear_issue" "probe" {
  workflow_id = rootly_workflow_simple.tasks.id
  name        = "tf-probe create_linear_issue ${var.rev}"
  task_params {
    state = { id = "tf-probe-id", name = "tf-probe" }
    team  = { id = "tf-probe-id", name = "tf-probe" }
    title = "tf-probe ${var.rev}"
  }
}

resource "rootly_workflow_task_create_linear_issue_comment" "probe" {
  workflow_id = rootly_workflow_simple.tasks.id
  name        = "tf-probe create_linear_issue_comment ${var.rev}"
  task_params {
    body     = "tf-probe ${var.rev}"
    issue_id = "tf-probe-id"
  }
}

resource "rootly_workflow_task_create_linear_subtask_issue" "probe" {
  workflow_id = rootly_workflow_simple.tasks.id
  name        = "tf-probe create_linear_subtask_issue ${var.rev}"
  task_params {
    parent_issue_id = "tf-probe-id"
    state           = { id = "tf-probe-id", name = "tf-probe" }
    title           = "tf-probe ${var.rev}"
  }
}

resource "rootly_workflow_task_create_microsoft_teams_channel" "probe" {
  workflow_id = rootly_workflow_simple.tasks.id
  name        = "tf-probe create_microsoft_teams_channel ${var.rev}"
  task_params {
    team  = { id = "tf-probe-id", name = "tf-probe" }
    title = "tf-probe ${var.rev}"
  }
}

resource "rootly_workflow_task_create_microsoft_teams_chat" "probe" {
  workflow_id = rootly_workflow_simple.tasks.id
  name        = "tf-probe create_microsoft_teams_chat ${var.rev}"
  task_params {
    members {
      id   = "tf-probe-id"
      name = "tf-probe ${var.rev}"
    }
  }
}

resource "rootly_workflow_task_create_microsoft_teams_meeting" "probe" {
  workflow_id = rootly_workflow_simple.tasks.id
  name        = "tf-probe create_microsoft_teams_meeting ${var.rev}"
  task_params {
    name    = "tf-probe ${var.rev}"
    subject = "tf-probe ${var.rev}"
  }
}

resource "rootly_workflow_task_create_mistral_chat_completion" "probe" {
  workflow_id = rootly_workflow_simple.tasks.id
  name        = "tf-probe create_mistral_chat_completion ${var.rev}"
  task_params {
    model  = { id = "tf-probe-id", name = "tf-probe" }
    prompt = "tf-probe ${var.rev}"
  }
}

resource "rootly_workflow_task_create_motion_task" "probe" {
  workflow_id = rootly_workflow_simple.tasks.id
  name        = "tf-probe create_motion_task ${var.rev}"
  task_params {
    title     = "tf-probe ${var.rev}"
    workspace = { id = "tf-probe-id", name = "tf-probe" }
  }
}

resource "rootly_workflow_task_create_notion_page" "probe" {
  workflow_id = rootly_workflow_simple.tasks.id
  name        = "tf-probe create_notion_page ${var.rev}"
  task_params {
    parent_page = { id = "tf-probe-id", name = "tf-probe" }
    title       = "tf-probe ${var.rev}"
  }
}

resource "rootly_workflow_task_create_openai_chat_completion" "probe" {
  workflow_id = rootly_workflow_simple.tasks.id
  name        = "tf-probe create_openai_chat_completion ${var.rev}"
  task_params {
    model  = { id = "tf-probe-id", name = "tf-probe" }
    prompt = "tf-probe ${var.rev}"
  }
}

resource "rootly_workflow_task_create_opsgenie_alert" "probe" {
  workflow_id = rootly_workflow_simple.tasks.id
  name        = "tf-probe create_opsgenie_alert ${var.rev}"
  task_params {
    message = "tf-probe ${var.rev}"
  }
}

resource "rootly_workflow_task_create_outlook_event" "probe" {
  workflow_id = rootly_workflow_simple.tasks.id
  name        = "tf-probe create_outlook_event ${var.rev}"
  task_params {
    calendar           = { id = "tf-probe-id", name = "tf-probe" }
    days_until_meeting = 1
    description        = "tf-probe ${var.rev}"
    meeting_duration   = "tf-probe ${var.rev}"
    summary            = "tf-probe ${var.rev}"
    time_of_meeting    = "tf-probe ${var.rev}"
  }
}

resource "rootly_workflow_task_create_pagerduty_status_update" "probe" {
  workflow_id = rootly_workflow_simple.tasks.id
  name        = "tf-probe create_pagerduty_status_update ${var.rev}"
  task_params {
    message               = "tf-probe ${var.rev}"
    pagerduty_incident_id = "tf-probe-id"
  }
}

resource "rootly_workflow_task_create_pagertree_alert" "probe" {
  workflow_id = rootly_workflow_simple.tasks.id
  name        = "tf-probe create_pagertree_alert ${var.rev}"
  task_params {
  }
}

resource "rootly_workflow_task_create_quip_page" "probe" {
  workflow_id = rootly_workflow_simple.tasks.id
  name        = "tf-probe create_quip_page ${var.rev}"
  task_params {
    title = "tf-probe ${var.rev}"
  }
}

resource "rootly_workflow_task_create_service_now_incident" "probe" {
  workflow_id = rootly_workflow_simple.tasks.id
  name        = "tf-probe create_service_now_incident ${var.rev}"
  task_params {
    title = "tf-probe ${var.rev}"
  }
}

resource "rootly_workflow_task_create_sharepoint_page" "probe" {
  workflow_id = rootly_workflow_simple.tasks.id
  name        = "tf-probe create_sharepoint_page ${var.rev}"
  task_params {
    drive = { id = "tf-probe-id", name = "tf-probe" }
    site  = { id = "tf-probe-id", name = "tf-probe" }
    title = "tf-probe ${var.rev}"
  }
}

resource "rootly_workflow_task_create_shortcut_story" "probe" {
  workflow_id = rootly_workflow_simple.tasks.id
  name        = "tf-probe create_shortcut_story ${var.rev}"
  task_params {
    archivation = { id = "tf-probe-id", name = "tf-probe" }
    kind        = "bug"
    title       = "tf-probe ${var.rev}"
  }
}

resource "rootly_workflow_task_create_shortcut_task" "probe" {
  workflow_id = rootly_workflow_simple.tasks.id
  name        = "tf-probe create_shortcut_task ${var.rev}"
  task_params {
    completion      = { id = "tf-probe-id", name = "tf-probe" }
    description     = "tf-probe ${var.rev}"
    parent_story_id = "tf-probe-id"
  }
}

resource "rootly_workflow_task_create_slack_channel" "probe" {
  workflow_id = rootly_workflow_simple.tasks.id
  name        = "tf-probe create_slack_channel ${var.rev}"
  task_params {
    title     = "tf-probe ${var.rev}"
    workspace = { id = "tf-probe-id", name = "tf-probe" }
  }
}

resource "rootly_workflow_task_create_sub_incident" "probe" {
  workflow_id = rootly_workflow_simple.tasks.id
  name        = "tf-probe create_sub_incident ${var.rev}"
  task_params {
    title = "tf-probe ${var.rev}"
  }
}

resource "rootly_workflow_task_create_trello_card" "probe" {
  workflow_id = rootly_workflow_simple.tasks.id
  name        = "tf-probe create_trello_card ${var.rev}"
  task_params {
    board = { id = "tf-probe-id", name = "tf-probe" }
    list  = { id = "tf-probe-id", name = "tf-probe" }
    title = "tf-probe ${var.rev}"
  }
}

resource "rootly_workflow_task_create_watsonx_chat_completion" "probe" {
  workflow_id = rootly_workflow_simple.tasks.id
  name        = "tf-probe create_watsonx_chat_completion ${var.rev}"
  task_params {
    model      = { id = "tf-probe-id", name = "tf-probe" }
    project_id = "tf-probe-id"
    prompt     = "tf-probe ${var.rev}"
  }
}

resource "rootly_workflow_task_create_webex_meeting" "probe" {
  workflow_id = rootly_workflow_simple.tasks.id
  name        = "tf-probe create_webex_meeting ${var.rev}"
  task_params {
    topic = "tf-probe ${var.rev}"
  }
}

resource "rootly_workflow_task_create_zendesk_jira_link" "probe" {
  workflow_id = rootly_workflow_simple.tasks.id
  name        = "tf-probe create_zendesk_jira_link ${var.rev}"
  task_params {
    jira_issue_id     = "tf-probe-id"
    jira_issue_key    = "tf-probe ${var.rev}"
    zendesk_ticket_id = "tf-probe-id"
  }
}

resource "rootly_workflow_task_create_zendesk_ticket" "probe" {
  workflow_id = rootly_workflow_simple.tasks.id
  name        = "tf-probe create_zendesk_ticket ${var.rev}"
  task_params {
    kind    = "problem"
    subject = "tf-probe ${var.rev}"
  }
}

resource "rootly_workflow_task_create_zoom_meeting" "probe" {
  workflow_id = rootly_workflow_simple.tasks.id
  name        = "tf-probe create_zoom_meeting ${var.rev}"
  task_params {
    topic = "tf-probe ${var.rev}"
  }
}

resource "rootly_workflow_task_get_alerts" "probe" {
  workflow_id = rootly_workflow_simple.tasks.id
  name        = "tf-probe get_alerts ${var.rev}"
  task_params {
    past_duration = "tf-probe ${var.rev}"
  }
}

resource "rootly_workflow_task_get_github_commits" "probe" {
  workflow_id = rootly_workflow_simple.tasks.id
  name        = "tf-probe get_github_commits ${var.rev}"
  task_params {
    branch        = "tf-probe ${var.rev}"
    past_duration = "tf-probe ${var.rev}"
  }
}

resource "rootly_workflow_task_get_gitlab_commits" "probe" {
  workflow_id = rootly_workflow_simple.tasks.id
  name        = "tf-probe get_gitlab_commits ${var.rev}"
  task_params {
    branch        = "tf-probe ${var.rev}"
    past_duration = "tf-probe ${var.rev}"
  }
}

resource "rootly_workflow_task_get_pulses" "probe" {
  workflow_id = rootly_workflow_simple.tasks.id
  name        = "tf-probe get_pulses ${var.rev}"
  task_params {
    past_duration = "tf-probe ${var.rev}"
  }
}

resource "rootly_workflow_task_invite_to_google_chat_space" "probe" {
  workflow_id = rootly_workflow_simple.tasks.id
  name        = "tf-probe invite_to_google_chat_space ${var.rev}"
  task_params {
    emails = "tf-probe ${var.rev}"
    space  = { id = "tf-probe-id", name = "tf-probe" }
  }
}

resource "rootly_workflow_task_invite_to_microsoft_teams_channel" "probe" {
  workflow_id = rootly_workflow_simple.tasks.id
  name        = "tf-probe invite_to_microsoft_teams_channel ${var.rev}"
  task_params {
    channel = { id = "tf-probe-id", name = "tf-probe" }
    emails  = "tf-probe ${var.rev}"
  }
}

resource "rootly_workflow_task_invite_to_microsoft_teams_channel_rootly" "probe" {
  workflow_id = rootly_workflow_simple.tasks.id
  name        = "tf-probe invite_to_microsoft_teams_channel_rootly ${var.rev}"
  task_params {
    channel = { id = "tf-probe-id", name = "tf-probe" }
    team    = { id = "tf-probe-id", name = "tf-probe" }
  }
}

resource "rootly_workflow_task_invite_to_slack_channel" "probe" {
  workflow_id = rootly_workflow_simple.tasks.id
  name        = "tf-probe invite_to_slack_channel ${var.rev}"
  task_params {
    channel = { id = "tf-probe-id", name = "tf-probe" }
  }
}

resource "rootly_workflow_task_invite_to_slack_channel_opsgenie" "probe" {
  workflow_id = rootly_workflow_simple.tasks.id
  name        = "tf-probe invite_to_slack_channel_opsgenie ${var.rev}"
  task_params {
    schedule = { id = "tf-probe-id", name = "tf-probe" }
    channels {
      id   = "tf-probe-id"
      name = "tf-probe ${var.rev}"
    }
  }
}

resource "rootly_workflow_task_invite_to_slack_channel_pagerduty" "probe" {
  workflow_id = rootly_workflow_simple.tasks.id
  name        = "tf-probe invite_to_slack_channel_pagerduty ${var.rev}"
  task_params {
    channels {
      id   = "tf-probe-id"
      name = "tf-probe ${var.rev}"
    }
  }
}

resource "rootly_workflow_task_invite_to_slack_channel_rootly" "probe" {
  workflow_id = rootly_workflow_simple.tasks.id
  name        = "tf-probe invite_to_slack_channel_rootly ${var.rev}"
  task_params {
    channels {
      id   = "tf-probe-id"
      name = "tf-probe ${var.rev}"
    }
  }
}

resource "rootly_workflow_task_invite_to_slack_channel_victor_ops" "probe" {
  workflow_id = rootly_workflow_simple.tasks.id
  name        = "tf-probe invite_to_slack_channel_victor_ops ${var.rev}"
  task_params {
    team = { id = "tf-probe-id", name = "tf-probe" }
    channels {
      id   = "tf-probe-id"
      name = "tf-probe ${var.rev}"
    }
  }
}

resource "rootly_workflow_task_page_jsmops_on_call_responders" "probe" {
  workflow_id = rootly_workflow_simple.tasks.id
  name        = "tf-probe page_jsmops_on_call_responders ${var.rev}"
  task_params {
  }
}

resource "rootly_workflow_task_page_opsgenie_on_call_responders" "probe" {
  workflow_id = rootly_workflow_simple.tasks.id
  name        = "tf-probe page_opsgenie_on_call_responders ${var.rev}"
  task_params {
  }
}

resource "rootly_workflow_task_page_pagerduty_on_call_responders" "probe" {
  workflow_id = rootly_workflow_simple.tasks.id
  name        = "tf-probe page_pagerduty_on_call_responders ${var.rev}"
  task_params {
    service = { id = "tf-probe-id", name = "tf-probe" }
  }
}

resource "rootly_workflow_task_page_rootly_on_call_responders" "probe" {
  workflow_id = rootly_workflow_simple.tasks.id
  name        = "tf-probe page_rootly_on_call_responders ${var.rev}"
  task_params {
    alert_urgency_id = "tf-probe-id"
    summary          = "tf-probe ${var.rev}"
  }
}

resource "rootly_workflow_task_page_victor_ops_on_call_responders" "probe" {
  workflow_id = rootly_workflow_simple.tasks.id
  name        = "tf-probe page_victor_ops_on_call_responders ${var.rev}"
  task_params {
  }
}

resource "rootly_workflow_task_publish_incident" "probe" {
  workflow_id = rootly_workflow_simple.tasks.id
  name        = "tf-probe publish_incident ${var.rev}"
  task_params {
    incident       = { id = "tf-probe-id", name = "tf-probe" }
    public_title   = "tf-probe ${var.rev}"
    status         = "investigating"
    status_page_id = "tf-probe-id"
  }
}

resource "rootly_workflow_task_redis_client" "probe" {
  workflow_id = rootly_workflow_simple.tasks.id
  name        = "tf-probe redis_client ${var.rev}"
  task_params {
    commands = "tf-probe ${var.rev}"
    url      = "tf-probe ${var.rev}"
  }
}

resource "rootly_workflow_task_remove_google_docs_permissions" "probe" {
  workflow_id = rootly_workflow_simple.tasks.id
  name        = "tf-probe remove_google_docs_permissions ${var.rev}"
  task_params {
    attribute_to_query_by = "type"
    file_id               = "tf-probe-id"
    value                 = "tf-probe ${var.rev}"
  }
}

resource "rootly_workflow_task_rename_google_chat_space" "probe" {
  workflow_id = rootly_workflow_simple.tasks.id
  name        = "tf-probe rename_google_chat_space ${var.rev}"
  task_params {
    space = { id = "tf-probe-id", name = "tf-probe" }
    title = "tf-probe ${var.rev}"
  }
}

resource "rootly_workflow_task_rename_microsoft_teams_channel" "probe" {
  workflow_id = rootly_workflow_simple.tasks.id
  name        = "tf-probe rename_microsoft_teams_channel ${var.rev}"
  task_params {
    channel = { id = "tf-probe-id", name = "tf-probe" }
    team    = { id = "tf-probe-id", name = "tf-probe" }
    title   = "tf-probe ${var.rev}"
  }
}

resource "rootly_workflow_task_rename_slack_channel" "probe" {
  workflow_id = rootly_workflow_simple.tasks.id
  name        = "tf-probe rename_slack_channel ${var.rev}"
  task_params {
    channel = { id = "tf-probe-id", name = "tf-probe" }
    title   = "tf-probe ${var.rev}"
  }
}

resource "rootly_workflow_task_run_command_heroku" "probe" {
  workflow_id = rootly_workflow_simple.tasks.id
  name        = "tf-probe run_command_heroku ${var.rev}"
  task_params {
    app_name = "tf-probe ${var.rev}"
    command  = "tf-probe ${var.rev}"
    size     = "standard-1X"
  }
}

resource "rootly_workflow_task_send_dashboard_report" "probe" {
  workflow_id = rootly_workflow_simple.tasks.id
  name        = "tf-probe send_dashboard_report ${var.rev}"
  task_params {
    body          = "tf-probe ${var.rev}"
    dashboard_ids = ["tf-probe"]
    subject       = "tf-probe ${var.rev}"
    to            = ["tf-probe"]
  }
}

resource "rootly_workflow_task_send_google_chat_attachments" "probe" {
  workflow_id = rootly_workflow_simple.tasks.id
  name        = "tf-probe send_google_chat_attachments ${var.rev}"
  task_params {
    attachments = "tf-probe ${var.rev}"
    spaces {
      id   = "tf-probe-id"
      name = "tf-probe ${var.rev}"
    }
  }
}

resource "rootly_workflow_task_send_google_chat_message" "probe" {
  workflow_id = rootly_workflow_simple.tasks.id
  name        = "tf-probe send_google_chat_message ${var.rev}"
  task_params {
    text = "tf-probe ${var.rev}"
    spaces {
      id   = "tf-probe-id"
      name = "tf-probe ${var.rev}"
    }
  }
}

resource "rootly_workflow_task_send_microsoft_teams_blocks" "probe" {
  workflow_id = rootly_workflow_simple.tasks.id
  name        = "tf-probe send_microsoft_teams_blocks ${var.rev}"
  task_params {
    attachments = "tf-probe ${var.rev}"
  }
}

resource "rootly_workflow_task_send_microsoft_teams_chat_message" "probe" {
  workflow_id = rootly_workflow_simple.tasks.id
  name        = "tf-probe send_microsoft_teams_chat_message ${var.rev}"
  task_params {
    text = "tf-probe ${var.rev}"
    chats {
      id   = "tf-probe-id"
      name = "tf-probe ${var.rev}"
    }
  }
}

resource "rootly_workflow_task_send_microsoft_teams_message" "probe" {
  workflow_id = rootly_workflow_simple.tasks.id
  name        = "tf-probe send_microsoft_teams_message ${var.rev}"
  task_params {
    text = "tf-probe ${var.rev}"
  }
}

resource "rootly_workflow_task_send_slack_blocks" "probe" {
  workflow_id = rootly_workflow_simple.tasks.id
  name        = "tf-probe send_slack_blocks ${var.rev}"
  task_params {
    blocks = "tf-probe ${var.rev}"
  }
}

resource "rootly_workflow_task_send_slack_message" "probe" {
  workflow_id = rootly_workflow_simple.tasks.id
  name        = "tf-probe send_slack_message ${var.rev}"
  task_params {
    text = "tf-probe ${var.rev}"
  }
}

resource "rootly_workflow_task_send_sms" "probe" {
  workflow_id = rootly_workflow_simple.tasks.id
  name        = "tf-probe send_sms ${var.rev}"
  task_params {
    content       = "tf-probe ${var.rev}"
    name          = "tf-probe ${var.rev}"
    phone_numbers = ["tf-probe"]
  }
}

resource "rootly_workflow_task_send_whatsapp_message" "probe" {
  workflow_id = rootly_workflow_simple.tasks.id
  name        = "tf-probe send_whatsapp_message ${var.rev}"
  task_params {
    content       = "tf-probe ${var.rev}"
    name          = "tf-probe ${var.rev}"
    phone_numbers = ["tf-probe"]
  }
}

resource "rootly_workflow_task_snapshot_datadog_graph" "probe" {
  workflow_id = rootly_workflow_simple.tasks.id
  name        = "tf-probe snapshot_datadog_graph ${var.rev}"
  task_params {
    past_duration = "tf-probe ${var.rev}"
  }
}

resource "rootly_workflow_task_snapshot_grafana_dashboard" "probe" {
  workflow_id = rootly_workflow_simple.tasks.id
  name        = "tf-probe snapshot_grafana_dashboard ${var.rev}"
  task_params {
    dashboards {
      id   = "tf-probe-id"
      name = "tf-probe ${var.rev}"
    }
  }
}

resource "rootly_workflow_task_snapshot_looker_look" "probe" {
  workflow_id = rootly_workflow_simple.tasks.id
  name        = "tf-probe snapshot_looker_look ${var.rev}"
  task_params {
    dashboards {
      id   = "tf-probe-id"
      name = "tf-probe ${var.rev}"
    }
  }
}

resource "rootly_workflow_task_snapshot_new_relic_graph" "probe" {
  workflow_id = rootly_workflow_simple.tasks.id
  name        = "tf-probe snapshot_new_relic_graph ${var.rev}"
  task_params {
    metric_query = "tf-probe ${var.rev}"
    metric_type  = "APDEX"
  }
}

resource "rootly_workflow_task_trigger_workflow" "probe" {
  workflow_id = rootly_workflow_simple.tasks.id
  name        = "tf-probe trigger_workflow ${var.rev}"
  task_params {
    attribute_to_query_by = "id"
    kind                  = "incident"
    resource              = { id = "tf-probe-id", name = "tf-probe" }
    workflow              = { id = "tf-probe-id", name = "tf-probe" }
  }
}

resource "rootly_workflow_task_tweet_twitter_message" "probe" {
  workflow_id = rootly_workflow_simple.tasks.id
  name        = "tf-probe tweet_twitter_message ${var.rev}"
  task_params {
    message = "tf-probe ${var.rev}"
  }
}

resource "rootly_workflow_task_update_action_item" "probe" {
  workflow_id = rootly_workflow_simple.tasks.id
  name        = "tf-probe update_action_item ${var.rev}"
  task_params {
    attribute_to_query_by = "id"
    query_value           = "tf-probe ${var.rev}"
  }
}

resource "rootly_workflow_task_update_airtable_table_record" "probe" {
  workflow_id = rootly_workflow_simple.tasks.id
  name        = "tf-probe update_airtable_table_record ${var.rev}"
  task_params {
    base_key   = "tf-probe ${var.rev}"
    record_id  = "tf-probe-id"
    table_name = "tf-probe ${var.rev}"
  }
}

resource "rootly_workflow_task_update_asana_task" "probe" {
  workflow_id = rootly_workflow_simple.tasks.id
  name        = "tf-probe update_asana_task ${var.rev}"
  task_params {
    completion = { id = "tf-probe-id", name = "tf-probe" }
    task_id    = "tf-probe-id"
  }
}

resource "rootly_workflow_task_update_attached_alerts" "probe" {
  workflow_id = rootly_workflow_simple.tasks.id
  name        = "tf-probe update_attached_alerts ${var.rev}"
  task_params {
    status = "acknowledged"
  }
}

resource "rootly_workflow_task_update_clickup_task" "probe" {
  workflow_id = rootly_workflow_simple.tasks.id
  name        = "tf-probe update_clickup_task ${var.rev}"
  task_params {
    task_id = "tf-probe-id"
  }
}

resource "rootly_workflow_task_update_coda_page" "probe" {
  workflow_id = rootly_workflow_simple.tasks.id
  name        = "tf-probe update_coda_page ${var.rev}"
  task_params {
    page_id = "tf-probe-id"
  }
}

resource "rootly_workflow_task_update_confluence_page" "probe" {
  workflow_id = rootly_workflow_simple.tasks.id
  name        = "tf-probe update_confluence_page ${var.rev}"
  task_params {
    file_id = "tf-probe-id"
  }
}

resource "rootly_workflow_task_update_datadog_notebook" "probe" {
  workflow_id = rootly_workflow_simple.tasks.id
  name        = "tf-probe update_datadog_notebook ${var.rev}"
  task_params {
    file_id = "tf-probe-id"
  }
}

resource "rootly_workflow_task_update_dropbox_paper_page" "probe" {
  workflow_id = rootly_workflow_simple.tasks.id
  name        = "tf-probe update_dropbox_paper_page ${var.rev}"
  task_params {
    file_id = "tf-probe-id"
  }
}

resource "rootly_workflow_task_update_github_issue" "probe" {
  workflow_id = rootly_workflow_simple.tasks.id
  name        = "tf-probe update_github_issue ${var.rev}"
  task_params {
    completion = { id = "tf-probe-id", name = "tf-probe" }
    issue_id   = "tf-probe-id"
  }
}

resource "rootly_workflow_task_update_gitlab_issue" "probe" {
  workflow_id = rootly_workflow_simple.tasks.id
  name        = "tf-probe update_gitlab_issue ${var.rev}"
  task_params {
    completion = { id = "tf-probe-id", name = "tf-probe" }
    issue_id   = "tf-probe-id"
  }
}

resource "rootly_workflow_task_update_google_calendar_event" "probe" {
  workflow_id = rootly_workflow_simple.tasks.id
  name        = "tf-probe update_google_calendar_event ${var.rev}"
  task_params {
    event_id = "tf-probe-id"
  }
}

resource "rootly_workflow_task_update_google_chat_space_description" "probe" {
  workflow_id = rootly_workflow_simple.tasks.id
  name        = "tf-probe update_google_chat_space_description ${var.rev}"
  task_params {
    description = "tf-probe ${var.rev}"
    space       = { id = "tf-probe-id", name = "tf-probe" }
  }
}

resource "rootly_workflow_task_update_google_docs_page" "probe" {
  workflow_id = rootly_workflow_simple.tasks.id
  name        = "tf-probe update_google_docs_page ${var.rev}"
  task_params {
    file_id = "tf-probe-id"
  }
}

resource "rootly_workflow_task_update_incident" "probe" {
  workflow_id = rootly_workflow_simple.tasks.id
  name        = "tf-probe update_incident ${var.rev}"
  task_params {
    incident_id = "tf-probe-id"
  }
}

resource "rootly_workflow_task_update_incident_postmortem" "probe" {
  workflow_id = rootly_workflow_simple.tasks.id
  name        = "tf-probe update_incident_postmortem ${var.rev}"
  task_params {
    postmortem_id = "tf-probe-id"
  }
}

resource "rootly_workflow_task_update_incident_status_timestamp" "probe" {
  workflow_id = rootly_workflow_simple.tasks.id
  name        = "tf-probe update_incident_status_timestamp ${var.rev}"
  task_params {
    assigned_at   = "tf-probe ${var.rev}"
    sub_status_id = "tf-probe-id"
  }
}

resource "rootly_workflow_task_update_jira_issue" "probe" {
  workflow_id = rootly_workflow_simple.tasks.id
  name        = "tf-probe update_jira_issue ${var.rev}"
  task_params {
    issue_id    = "tf-probe-id"
    project_key = "tf-probe ${var.rev}"
  }
}

resource "rootly_workflow_task_update_linear_issue" "probe" {
  workflow_id = rootly_workflow_simple.tasks.id
  name        = "tf-probe update_linear_issue ${var.rev}"
  task_params {
    issue_id = "tf-probe-id"
  }
}

resource "rootly_workflow_task_update_motion_task" "probe" {
  workflow_id = rootly_workflow_simple.tasks.id
  name        = "tf-probe update_motion_task ${var.rev}"
  task_params {
    task_id = "tf-probe-id"
  }
}

resource "rootly_workflow_task_update_notion_page" "probe" {
  workflow_id = rootly_workflow_simple.tasks.id
  name        = "tf-probe update_notion_page ${var.rev}"
  task_params {
    file_id = "tf-probe-id"
  }
}

resource "rootly_workflow_task_update_opsgenie_alert" "probe" {
  workflow_id = rootly_workflow_simple.tasks.id
  name        = "tf-probe update_opsgenie_alert ${var.rev}"
  task_params {
    alert_id   = "tf-probe-id"
    completion = { id = "tf-probe-id", name = "tf-probe" }
    priority   = "P1"
  }
}

resource "rootly_workflow_task_update_opsgenie_incident" "probe" {
  workflow_id = rootly_workflow_simple.tasks.id
  name        = "tf-probe update_opsgenie_incident ${var.rev}"
  task_params {
    opsgenie_incident_id = "tf-probe-id"
  }
}

resource "rootly_workflow_task_update_pagerduty_incident" "probe" {
  workflow_id = rootly_workflow_simple.tasks.id
  name        = "tf-probe update_pagerduty_incident ${var.rev}"
  task_params {
    pagerduty_incident_id = "tf-probe-id"
  }
}

resource "rootly_workflow_task_update_pagertree_alert" "probe" {
  workflow_id = rootly_workflow_simple.tasks.id
  name        = "tf-probe update_pagertree_alert ${var.rev}"
  task_params {
  }
}

resource "rootly_workflow_task_update_quip_page" "probe" {
  workflow_id = rootly_workflow_simple.tasks.id
  name        = "tf-probe update_quip_page ${var.rev}"
  task_params {
    file_id = "tf-probe-id"
  }
}

resource "rootly_workflow_task_update_service_now_incident" "probe" {
  workflow_id = rootly_workflow_simple.tasks.id
  name        = "tf-probe update_service_now_incident ${var.rev}"
  task_params {
    incident_id = "tf-probe-id"
  }
}

resource "rootly_workflow_task_update_sharepoint_page" "probe" {
  workflow_id = rootly_workflow_simple.tasks.id
  name        = "tf-probe update_sharepoint_page ${var.rev}"
  task_params {
    file_id = "tf-probe-id"
  }
}

resource "rootly_workflow_task_update_shortcut_story" "probe" {
  workflow_id = rootly_workflow_simple.tasks.id
  name        = "tf-probe update_shortcut_story ${var.rev}"
  task_params {
    archivation = { id = "tf-probe-id", name = "tf-probe" }
    story_id    = "tf-probe-id"
  }
}

resource "rootly_workflow_task_update_shortcut_task" "probe" {
  workflow_id = rootly_workflow_simple.tasks.id
  name        = "tf-probe update_shortcut_task ${var.rev}"
  task_params {
    completion      = { id = "tf-probe-id", name = "tf-probe" }
    parent_story_id = "tf-probe-id"
    task_id         = "tf-probe-id"
  }
}

resource "rootly_workflow_task_update_slack_channel_topic" "probe" {
  workflow_id = rootly_workflow_simple.tasks.id
  name        = "tf-probe update_slack_channel_topic ${var.rev}"
  task_params {
    channel = { id = "tf-probe-id", name = "tf-probe" }
    topic   = "tf-probe ${var.rev}"
  }
}

resource "rootly_workflow_task_update_status" "probe" {
  workflow_id = rootly_workflow_simple.tasks.id
  name        = "tf-probe update_status ${var.rev}"
  task_params {
    status = "in_triage"
  }
}

resource "rootly_workflow_task_update_trello_card" "probe" {
  workflow_id = rootly_workflow_simple.tasks.id
  name        = "tf-probe update_trello_card ${var.rev}"
  task_params {
    archivation = { id = "tf-probe-id", name = "tf-probe" }
    card_id     = "tf-probe-id"
  }
}

resource "rootly_workflow_task_update_victor_ops_incident" "probe" {
  workflow_id = rootly_workflow_simple.tasks.id
  name        = "tf-probe update_victor_ops_incident ${var.rev}"
  task_params {
    status                 = "resolve"
    victor_ops_incident_id = "tf-probe-id"
  }
}

resource "rootly_workflow_task_update_zendesk_ticket" "probe" {
  workflow_id = rootly_workflow_simple.tasks.id
  name        = "tf-probe update_zendesk_ticket ${var.rev}"
  task_params {
    ticket_id = "tf-probe-id"
  }
}


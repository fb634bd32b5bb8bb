/* Resources kept in our lists by their own wl_resource link. */
#include "compositor.h"

void tc_resource_unlink(struct wl_resource *resource)
{
	wl_list_remove(wl_resource_get_link(resource));
	wl_list_init(wl_resource_get_link(resource));
}

void tc_resource_list_detach(struct wl_list *list)
{
	while (!wl_list_empty(list)) {
		struct wl_list *link = list->next;
		wl_list_remove(link);
		wl_list_init(link);
	}
}
